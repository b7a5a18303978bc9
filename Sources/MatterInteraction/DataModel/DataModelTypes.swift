package import MatterCore
public import MatterTLV

/// One write to hand to the data model.
public enum AttributeWrite: Hashable, Sendable {
    /// Set the attribute; for a list, replace every entry (for a fabric-scoped list: every entry of the
    /// accessing fabric) with the members of this array.
    case replace(TLVValue)
    /// Append one entry to a list (the write's path had `ListIndex = null`).
    case append(TLVValue)
}

/// A response command produced by ``DataModel/invoke(_:fields:context:)``.
public struct CommandResponse: Hashable, Sendable {
    /// The response command's ID (in the invoked command's cluster).
    package var command: CommandID
    /// Its CommandFields structure.
    package var fields: TLVValue

    package init(command: CommandID, fields: TLVValue) {
        self.command = command
        self.fields = fields
    }
}

/// A data change the data model reports to the engine, which subscriptions turn into reports.
package struct AttributeChange: Hashable, Sendable {
    package var endpoint: EndpointID
    package var cluster: ClusterID
    /// The attribute that changed; nil when any attribute of the cluster may have.
    package var attribute: AttributeID?
    /// The cluster instance's data version after the change.
    package var dataVersion: UInt32

    package init(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID?, dataVersion: UInt32) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
        self.dataVersion = dataVersion
    }
}

/// One event the data model recorded.
package struct EventRecord: Hashable, Sendable {
    package var path: ConcreteEventPath
    /// Monotonic event number.
    package var number: UInt64
    /// 0 debug, 1 info, 2 critical.
    package var priority: UInt8
    package var timestamp: EventDataIB.Timestamp
    /// The event's fields structure.
    package var data: TLVValue
    /// For fabric-sensitive events: the fabric the record belongs to.
    package var fabricIndex: UInt8?

    package init(
        path: ConcreteEventPath, number: UInt64, priority: UInt8, timestamp: EventDataIB.Timestamp,
        data: TLVValue, fabricIndex: UInt8? = nil
    ) {
        self.path = path
        self.number = number
        self.priority = priority
        self.timestamp = timestamp
        self.data = data
        self.fabricIndex = fabricIndex
    }
}

/// Receives the data model's change notifications (the interaction server, which owns subscriptions).
/// Called on the node's queue.
package protocol DataModelObserver: AnyObject {
    /// Attributes changed; each change carries the cluster's new data version.
    func attributesChanged(_ changes: [AttributeChange])
    /// New event records are available through ``DataModel/eventRecords(from:)``.
    func eventsRecorded()
    /// One event was recorded at `path`: subscriptions that name it urgent report it ahead of their
    /// min interval (spec 8.5.1, IsUrgent). The default treats it as ``eventsRecorded()``.
    func eventRecorded(_ path: ConcreteEventPath)
}

extension DataModelObserver {
    package func eventRecorded(_ path: ConcreteEventPath) { eventsRecorded() }
}
