import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// Week-day and year-day schedules (features WDSCH and YDSCH): set, get and clear per user, each change
/// with a LockUserChange event. They are kept and reported; enforcing them needs local time, which the
/// device does not have.
extension DoorLockServer {
    /// "Every schedule" in ClearWeekDaySchedule and ClearYearDaySchedule.
    static let allSchedules: UInt8 = 0xFE

    /// A schedule's (index, user) from fields 0 and 1: INVALID_COMMAND out of range, FAILURE when the
    /// user does not exist (as the SDK answers).
    private func scheduleTarget(_ fields: CommandFields, perUser: UInt8, allowAll: Bool) throws(StatusIB)
        -> (index: UInt8, user: UInt16)
    {
        let index = try fields.unsigned(0, UInt8.self)
        let user = try fields.unsigned(1, UInt16.self)
        guard (1...perUser).contains(index) || (allowAll && index == Self.allSchedules),
            (1...table.limits.users).contains(user)
        else { throw StatusIB(.invalidCommand) }
        guard table.users[user] != nil else { throw StatusIB(.failure) }
        return (index, user)
    }

    /// The status a Get...Schedule response carries for a request it cannot answer with a schedule.
    private func scheduleStatus(_ fields: CommandFields, perUser: UInt8) throws(StatusIB) -> (
        UInt8, UInt16, LockStatus?
    ) {
        let index = try fields.unsigned(0, UInt8.self)
        let user = try fields.unsigned(1, UInt16.self)
        guard (1...perUser).contains(index), (1...table.limits.users).contains(user) else {
            return (index, user, .invalidField)
        }
        guard table.users[user] != nil else { return (index, user, .failure) }
        return (index, user, nil)
    }

    // MARK: - Week days

    func setWeekDaySchedule(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let (index, user) = try scheduleTarget(fields, perUser: table.limits.weekDaySchedulesPerUser, allowAll: false)
        let schedule = DoorLockUserTable.WeekDaySchedule(
            days: try fields.unsigned(2, UInt8.self), startHour: try fields.unsigned(3, UInt8.self),
            startMinute: try fields.unsigned(4, UInt8.self), endHour: try fields.unsigned(5, UInt8.self),
            endMinute: try fields.unsigned(6, UInt8.self))
        let start = Int(schedule.startHour) * 60 + Int(schedule.startMinute)
        let end = Int(schedule.endHour) * 60 + Int(schedule.endMinute)
        guard schedule.days != 0, schedule.days < 0x80, schedule.startHour <= 23, schedule.startMinute <= 59,
            schedule.endHour <= 23, schedule.endMinute <= 59, start < end
        else { throw StatusIB(.invalidCommand) }
        let operation: DataOperation = table.users[user]?.weekDaySchedules[index] == nil ? .add : .modify
        table.users[user]?.weekDaySchedules[index] = schedule
        persistTable()
        recordUserChange(.weekDaySchedule, operation, user: user, dataIndex: UInt16(index), context: context)
    }

    func getWeekDaySchedule(_ fields: CommandFields) throws(StatusIB) -> CommandResponse {
        let (index, user, problem) = try scheduleStatus(fields, perUser: table.limits.weekDaySchedulesPerUser)
        var members = [
            TLVElement(tag: .context(0), .unsigned(UInt64(index))),
            TLVElement(tag: .context(1), .unsigned(UInt64(user))),
        ]
        if problem == nil, let s = table.users[user]?.weekDaySchedules[index] {
            members.append(TLVElement(tag: .context(2), .unsigned(UInt64(LockStatus.success.rawValue))))
            for (tag, value) in [(3, s.days), (4, s.startHour), (5, s.startMinute), (6, s.endHour), (7, s.endMinute)] {
                members.append(TLVElement(tag: .context(UInt8(tag)), .unsigned(UInt64(value))))
            }
        } else {
            members.append(TLVElement(tag: .context(2), .unsigned(UInt64((problem ?? .notFound).rawValue))))
        }
        return CommandResponse(command: .DoorLock.getWeekDayScheduleResponse, fields: .structure(members))
    }

    func clearWeekDaySchedule(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let (index, user) = try scheduleTarget(fields, perUser: table.limits.weekDaySchedulesPerUser, allowAll: true)
        if index == Self.allSchedules {
            table.users[user]?.weekDaySchedules = [:]
        } else {
            guard table.users[user]?.weekDaySchedules.removeValue(forKey: index) != nil else { return }
        }
        persistTable()
        recordUserChange(.weekDaySchedule, .clear, user: user, dataIndex: UInt16(index), context: context)
    }

    // MARK: - Year days

    func setYearDaySchedule(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let (index, user) = try scheduleTarget(fields, perUser: table.limits.yearDaySchedulesPerUser, allowAll: false)
        let schedule = DoorLockUserTable.YearDaySchedule(
            start: try fields.unsigned(2, UInt32.self), end: try fields.unsigned(3, UInt32.self))
        guard schedule.start < schedule.end else { throw StatusIB(.invalidCommand) }
        let operation: DataOperation = table.users[user]?.yearDaySchedules[index] == nil ? .add : .modify
        table.users[user]?.yearDaySchedules[index] = schedule
        persistTable()
        recordUserChange(.yearDaySchedule, operation, user: user, dataIndex: UInt16(index), context: context)
    }

    func getYearDaySchedule(_ fields: CommandFields) throws(StatusIB) -> CommandResponse {
        let (index, user, problem) = try scheduleStatus(fields, perUser: table.limits.yearDaySchedulesPerUser)
        var members = [
            TLVElement(tag: .context(0), .unsigned(UInt64(index))),
            TLVElement(tag: .context(1), .unsigned(UInt64(user))),
        ]
        if problem == nil, let s = table.users[user]?.yearDaySchedules[index] {
            members += [
                TLVElement(tag: .context(2), .unsigned(UInt64(LockStatus.success.rawValue))),
                TLVElement(tag: .context(3), .unsigned(UInt64(s.start))),
                TLVElement(tag: .context(4), .unsigned(UInt64(s.end))),
            ]
        } else {
            members.append(TLVElement(tag: .context(2), .unsigned(UInt64((problem ?? .notFound).rawValue))))
        }
        return CommandResponse(command: .DoorLock.getYearDayScheduleResponse, fields: .structure(members))
    }

    func clearYearDaySchedule(_ fields: CommandFields, context: InteractionContext) throws(StatusIB) {
        let (index, user) = try scheduleTarget(fields, perUser: table.limits.yearDaySchedulesPerUser, allowAll: true)
        if index == Self.allSchedules {
            table.users[user]?.yearDaySchedules = [:]
        } else {
            guard table.users[user]?.yearDaySchedules.removeValue(forKey: index) != nil else { return }
        }
        persistTable()
        recordUserChange(.yearDaySchedule, .clear, user: user, dataIndex: UInt16(index), context: context)
    }
}
