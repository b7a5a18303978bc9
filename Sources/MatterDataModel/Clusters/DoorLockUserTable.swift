import MatterTLV

/// A door lock's users, PIN credentials and schedules (features USR, PIN, WDSCH, YDSCH): plain state
/// that ``DoorLockServer`` changes by the specification's rules and persists as TLV. User and
/// credential indices start at 1, as the specification counts them.
struct DoorLockUserTable: Hashable {
    /// How much the lock holds (the `NumberOf...` attributes).
    struct Limits: Hashable {
        var users: UInt16 = 10
        var pinCredentials: UInt16 = 10
        var credentialsPerUser: UInt8 = 5
        var weekDaySchedulesPerUser: UInt8 = 4
        var yearDaySchedulesPerUser: UInt8 = 4
        var minPINLength: UInt8 = 4
        var maxPINLength: UInt8 = 8
    }

    /// A week-day schedule: days (bit 0 Sunday ... bit 6 Saturday) and a time window on them.
    struct WeekDaySchedule: Hashable {
        var days: UInt8
        var startHour: UInt8
        var startMinute: UInt8
        var endHour: UInt8
        var endMinute: UInt8
    }

    /// A year-day schedule: local epoch seconds.
    struct YearDaySchedule: Hashable {
        var start: UInt32
        var end: UInt32
    }

    struct User: Hashable {
        var name = ""
        var uniqueID: UInt32?
        /// UserStatusEnum: 1 OccupiedEnabled, 3 OccupiedDisabled.
        var status: UInt8 = 1
        /// UserTypeEnum (0 UnrestrictedUser).
        var type: UInt8 = 0
        /// CredentialRuleEnum (0 Single).
        var credentialRule: UInt8 = 0
        var creatorFabric: UInt8
        var lastModifiedFabric: UInt8
        var weekDaySchedules: [UInt8: WeekDaySchedule] = [:]
        var yearDaySchedules: [UInt8: YearDaySchedule] = [:]

        var isEnabled: Bool { status == 1 }
    }

    struct PINCredential: Hashable {
        var data: [UInt8]
        var user: UInt16
        var creatorFabric: UInt8
        var lastModifiedFabric: UInt8
    }

    var limits = Limits()
    var users: [UInt16: User] = [:]
    var pins: [UInt16: PINCredential] = [:]

    /// The PIN credential indices of `user`, ascending.
    func pinIndices(of user: UInt16) -> [UInt16] { pins.filter { $0.value.user == user }.keys.sorted() }

    /// The credential whose PIN is `pin`, if any.
    func pin(matching pin: [UInt8]) -> (index: UInt16, credential: PINCredential)? {
        pins.first { $0.value.data == pin }.map { ($0.key, $0.value) }
    }

    /// The first free user index, if any.
    var firstFreeUser: UInt16? { (1...limits.users).first { users[$0] == nil } }

    /// The next occupied user index after `index`.
    func nextUser(after index: UInt16) -> UInt16? {
        index < limits.users ? ((index + 1)...limits.users).first { users[$0] != nil } : nil
    }

    /// The next occupied PIN credential index after `index`.
    func nextPIN(after index: UInt16) -> UInt16? {
        index < limits.pinCredentials ? ((index + 1)...limits.pinCredentials).first { pins[$0] != nil } : nil
    }

    /// The next free PIN credential index after `index`.
    func nextFreePIN(after index: UInt16) -> UInt16? {
        index < limits.pinCredentials ? ((index + 1)...limits.pinCredentials).first { pins[$0] == nil } : nil
    }

    // MARK: - TLV

    /// The table as stored: `{0: users, 1: PIN credentials}`.
    var tlv: TLVValue {
        let users = users.keys.sorted().compactMap { index -> TLVElement? in
            guard let user = self.users[index] else { return nil }
            let weekDays = user.weekDaySchedules.keys.sorted().compactMap { key -> TLVElement? in
                guard let s = user.weekDaySchedules[key] else { return nil }
                return TLVElement(
                    .structure(
                        [key, s.days, s.startHour, s.startMinute, s.endHour, s.endMinute].enumerated().map {
                            TLVElement(tag: .context(UInt8($0.offset)), .unsigned(UInt64($0.element)))
                        }))
            }
            let yearDays = user.yearDaySchedules.keys.sorted().compactMap { key -> TLVElement? in
                guard let s = user.yearDaySchedules[key] else { return nil }
                return TLVElement(
                    .structure([
                        TLVElement(tag: .context(0), .unsigned(UInt64(key))),
                        TLVElement(tag: .context(1), .unsigned(UInt64(s.start))),
                        TLVElement(tag: .context(2), .unsigned(UInt64(s.end))),
                    ]))
            }
            return TLVElement(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(index))),
                    TLVElement(tag: .context(1), .utf8(user.name)),
                    TLVElement(tag: .context(2), user.uniqueID.map { .unsigned(UInt64($0)) } ?? .null),
                    TLVElement(tag: .context(3), .unsigned(UInt64(user.status))),
                    TLVElement(tag: .context(4), .unsigned(UInt64(user.type))),
                    TLVElement(tag: .context(5), .unsigned(UInt64(user.credentialRule))),
                    TLVElement(tag: .context(6), .unsigned(UInt64(user.creatorFabric))),
                    TLVElement(tag: .context(7), .unsigned(UInt64(user.lastModifiedFabric))),
                    TLVElement(tag: .context(8), .array(weekDays)),
                    TLVElement(tag: .context(9), .array(yearDays)),
                ]))
        }
        let pins = pins.keys.sorted().compactMap { index -> TLVElement? in
            guard let pin = self.pins[index] else { return nil }
            return TLVElement(
                .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(index))),
                    TLVElement(tag: .context(1), .bytes(pin.data)),
                    TLVElement(tag: .context(2), .unsigned(UInt64(pin.user))),
                    TLVElement(tag: .context(3), .unsigned(UInt64(pin.creatorFabric))),
                    TLVElement(tag: .context(4), .unsigned(UInt64(pin.lastModifiedFabric))),
                ]))
        }
        return .structure([TLVElement(tag: .context(0), .array(users)), TLVElement(tag: .context(1), .array(pins))])
    }

    /// Reads a stored table; nil when it is not one (the lock then starts empty).
    init?(tlv value: TLVValue, limits: Limits) {
        self.limits = limits
        let element = TLVElement(value)
        guard case .array(let storedUsers)? = element[context: 0]?.value,
            case .array(let storedPINs)? = element[context: 1]?.value
        else { return nil }
        func number<T: FixedWidthInteger>(_ element: TLVElement, _ tag: UInt8) -> T? {
            guard case .unsigned(let raw)? = element[context: tag]?.value else { return nil }
            return T(exactly: raw)
        }
        for stored in storedUsers {
            guard let index: UInt16 = number(stored, 0), (1...limits.users).contains(index),
                case .utf8(let name)? = stored[context: 1]?.value, let status: UInt8 = number(stored, 3),
                let type: UInt8 = number(stored, 4), let rule: UInt8 = number(stored, 5),
                let creator: UInt8 = number(stored, 6), let modifier: UInt8 = number(stored, 7),
                case .array(let weekDays)? = stored[context: 8]?.value,
                case .array(let yearDays)? = stored[context: 9]?.value
            else { return nil }
            var user = User(
                name: name, uniqueID: number(stored, 2), status: status, type: type, credentialRule: rule,
                creatorFabric: creator, lastModifiedFabric: modifier)
            for s in weekDays {
                guard let key: UInt8 = number(s, 0), let days: UInt8 = number(s, 1), let sh: UInt8 = number(s, 2),
                    let sm: UInt8 = number(s, 3), let eh: UInt8 = number(s, 4), let em: UInt8 = number(s, 5)
                else { return nil }
                user.weekDaySchedules[key] = WeekDaySchedule(
                    days: days, startHour: sh, startMinute: sm, endHour: eh, endMinute: em)
            }
            for s in yearDays {
                guard let key: UInt8 = number(s, 0), let start: UInt32 = number(s, 1), let end: UInt32 = number(s, 2)
                else { return nil }
                user.yearDaySchedules[key] = YearDaySchedule(start: start, end: end)
            }
            users[index] = user
        }
        for stored in storedPINs {
            guard let index: UInt16 = number(stored, 0), (1...limits.pinCredentials).contains(index),
                case .bytes(let data)? = stored[context: 1]?.value, let user: UInt16 = number(stored, 2),
                users[user] != nil, let creator: UInt8 = number(stored, 3), let modifier: UInt8 = number(stored, 4)
            else { return nil }
            pins[index] = PINCredential(data: data, user: user, creatorFabric: creator, lastModifiedFabric: modifier)
        }
    }

    init(limits: Limits = Limits()) { self.limits = limits }
}
