public import MatterClusters
public import MatterInteraction
public import MatterTLV

/// One event a cluster recorded in the device's event log: where, its number, priority and fields.
public struct RecordedEvent: Hashable, Sendable {
    public var path: ConcreteEventPath
    public var number: UInt64
    public var priority: EventSchema.Priority
    /// The event's fields structure.
    public var fields: TLVValue

    public init(path: ConcreteEventPath, number: UInt64, priority: EventSchema.Priority, fields: TLVValue) {
        self.path = path
        self.number = number
        self.priority = priority
        self.fields = fields
    }
}
