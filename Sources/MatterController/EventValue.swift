import MatterCore
public import MatterInteraction
public import MatterTLV

/// One event a node reported, with its timestamp resolved (deltas added to the previous event's) and
/// its fields named from the event's schema.
public struct EventValue: Hashable, Sendable {
    /// When the event happened, in milliseconds.
    public enum Timestamp: Hashable, Sendable {
        /// Since the Unix epoch.
        case epoch(UInt64)
        /// Since the node booted.
        case system(UInt64)

        /// The milliseconds, whichever clock.
        public var milliseconds: UInt64 {
            switch self {
            case .epoch(let ms), .system(let ms): ms
            }
        }
    }

    /// One field of the event's data structure.
    public struct Field: Hashable, Sendable {
        /// The context tag.
        public let tag: UInt8
        /// The schema's name (PascalCase), or the tag number when the schema does not know it.
        public let name: String
        public let value: TLVValue
    }

    public let path: ConcreteEventPath
    /// The node's monotonic event number.
    public let eventNumber: UInt64
    /// 0 debug, 1 info, 2 critical.
    public let priority: UInt8
    public let timestamp: Timestamp
    /// The event's data as reported (a structure), nil when the report had none.
    public let data: TLVValue?
    /// The members of `data` that have context tags, named by the schema.
    public let fields: [Field]
    /// The event's schema name (e.g. `LockOperation`), or nil for events without a schema here.
    public let name: String?
}

/// A status a node reported for an event path instead of events (e.g. UNSUPPORTED_EVENT).
public struct EventPathStatus: Hashable, Sendable {
    public let path: EventPathIB
    public let status: StatusIB
}

/// What reading events returned: events in the order reported, and statuses for paths that failed.
public struct EventReadResult: Hashable, Sendable {
    public let events: [EventValue]
    public let statuses: [EventPathStatus]
}
