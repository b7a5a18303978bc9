import MatterCore
import MatterInteraction
import MatterTLV

/// The data model's event records: numbered monotonically across restarts (numbers are reserved in
/// blocks in the store, so a reboot continues above anything used before), oldest dropped first,
/// timestamped in milliseconds since the data model started (system timestamps).
struct EventLog {
    static let reservationKey = "dm/event-number"
    static let reservationBlock: UInt64 = 1000

    private var records: [EventRecord] = []
    private let capacity: Int
    private let store: any AttributeStore
    private let bootTime: UInt64
    private var nextNumber: UInt64
    private var reservedUpTo: UInt64

    init(capacity: Int, store: any AttributeStore, bootTime: UInt64) {
        self.capacity = max(capacity, 1)
        self.store = store
        self.bootTime = bootTime
        var start: UInt64 = 1
        if let bytes = try? store.load(Self.reservationKey), let value = try? TLVElement.decode(bytes).uint {
            start = value
        }
        nextNumber = start
        reservedUpTo = start
        reserve()
    }

    private mutating func reserve() {
        reservedUpTo = nextNumber + Self.reservationBlock
        do {
            try store.save(Self.reservationKey, TLVElement(.unsigned(reservedUpTo)).encoded())
        } catch {
            Logger(label: "data-model").warning("could not reserve event numbers: \(error)")
        }
    }

    mutating func append(path: ConcreteEventPath, priority: UInt8, now: UInt64, data: TLVValue, fabricIndex: UInt8?)
        -> UInt64
    {
        if nextNumber >= reservedUpTo { reserve() }
        let number = nextNumber
        nextNumber += 1
        records.append(
            EventRecord(
                path: path, number: number, priority: priority,
                timestamp: .system(now >= bootTime ? now - bootTime : 0), data: data, fabricIndex: fabricIndex))
        if records.count > capacity { records.removeFirst(records.count - capacity) }
        return number
    }

    func records(from number: UInt64) -> [EventRecord] { records.filter { $0.number >= number } }
}
