import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport

/// Constants of the fake device.
enum Fake {
    /// A manufacturer-specific test cluster on endpoint 1.
    static let testCluster = ClusterID(0xFFF1_FC00)
    static let listAttribute = AttributeID(0x0000)
    static let bigListAttribute = AttributeID(0x0001)
    static let timedAttribute = AttributeID(0x0002)
    static let fabricListAttribute = AttributeID(0x0003)
    static let restrictedAttribute = AttributeID(0x0004)
    static let timedCommand = CommandID(0x00)
    static let echoCommand = CommandID(0x01)
    static let echoResponse = CommandID(0x02)
    static let failingCommand = CommandID(0x03)

    static let controllerNodeID: UInt64 = 112233
}

/// A tiny data model: EP0 BasicInformation, EP1 OnOff + the test cluster, EP2 DoorLock.
/// Confined to the server node's queue, like a real one.
final class FakeDataModel: DataModel, @unchecked Sendable {
    struct Cluster {
        var attributes: [AttributeInfo]
        var commands: [CommandInfo]
        var generated: [CommandID] = []
        var version: UInt32
    }

    var clusterTable: [EndpointID: [ClusterID: Cluster]] = [:]
    var values: [ConcreteAttributePath: TLVValue] = [:]
    /// Privilege per CASE subject node ID (PASE has Administer).
    var grants: [UInt64: Privilege] = [:]
    var invoked: [ConcreteCommandPath] = []
    var finishedListWrites: [ConcreteAttributePath] = []
    var events: [EventRecord] = []
    weak var observer: (any DataModelObserver)?

    init(controllerPrivilege: Privilege = .administer) {
        grants[Fake.controllerNodeID] = controllerPrivilege
        let globals = [AttributeInfo(.featureMap), AttributeInfo(.clusterRevision)]
        clusterTable[EndpointID(0)] = [
            .basicInformation: Cluster(
                attributes: [
                    AttributeInfo(.BasicInformation.vendorID),
                    AttributeInfo(.BasicInformation.nodeLabel, write: .manage),
                ] + globals, commands: [], version: 0x1234_5678)
        ]
        clusterTable[EndpointID(1)] = [
            .onOff: Cluster(
                attributes: [
                    AttributeInfo(.OnOff.onOff),
                    AttributeInfo(.OnOff.onTime, write: .operate),
                ] + globals,
                commands: [
                    CommandInfo(.OnOff.off), CommandInfo(.OnOff.on), CommandInfo(.OnOff.toggle),
                ], version: 3_169_247_736),
            Fake.testCluster: Cluster(
                attributes: [
                    AttributeInfo(Fake.listAttribute, write: .operate, list: true),
                    AttributeInfo(Fake.bigListAttribute, list: true),
                    AttributeInfo(Fake.timedAttribute, write: .operate, timed: true),
                    AttributeInfo(Fake.fabricListAttribute, write: .manage, list: true, fabricScoped: true),
                    AttributeInfo(Fake.restrictedAttribute, read: .administer),
                ] + globals,
                commands: [
                    CommandInfo(Fake.timedCommand, timed: true),
                    CommandInfo(Fake.echoCommand),
                    CommandInfo(Fake.failingCommand, fabricScoped: true),
                ], generated: [Fake.echoResponse], version: 7),
        ]
        clusterTable[EndpointID(2)] = [
            .doorLock: Cluster(
                attributes: [AttributeInfo(.DoorLock.lockState)] + globals,
                commands: [CommandInfo(.DoorLock.lockDoor, timed: true)], version: 1)
        ]
        for (endpoint, clusters) in clusterTable {
            for (cluster, _) in clusters {
                values[at(endpoint.rawValue, cluster, .featureMap)] = .unsigned(0)
                values[at(endpoint.rawValue, cluster, .clusterRevision)] = .unsigned(1)
            }
        }
        values[at(0, .basicInformation, .BasicInformation.vendorID)] = .unsigned(0xFFF1)
        values[at(0, .basicInformation, .BasicInformation.nodeLabel)] = .utf8("")
        values[at(1, .onOff, .OnOff.onOff)] = .bool(false)
        values[at(1, .onOff, .OnOff.onTime)] = .unsigned(0)
        values[at(1, Fake.testCluster, Fake.listAttribute)] = .array([])
        values[at(1, Fake.testCluster, Fake.bigListAttribute)] = .array(
            (0..<40).map {
                TLVElement(.utf8("entry \($0) " + String(repeating: "x", count: 30)))
            })
        values[at(1, Fake.testCluster, Fake.timedAttribute)] = .unsigned(0)
        values[at(1, Fake.testCluster, Fake.fabricListAttribute)] = .array([
            TLVElement(
                .structure([TLVElement(tag: .context(1), .unsigned(22)), TLVElement(tag: .context(0xFE), .unsigned(2))])
            )
        ])
        values[at(1, Fake.testCluster, Fake.restrictedAttribute)] = .unsigned(9)
        values[at(2, .doorLock, .DoorLock.lockState)] = .unsigned(1)
    }

    func at(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) -> ConcreteAttributePath {
        ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute)
    }

    // MARK: DataModel

    var endpoints: [EndpointID] { clusterTable.keys.sorted() }

    func clusters(endpoint: EndpointID) -> [ClusterID] { (clusterTable[endpoint] ?? [:]).keys.sorted() }

    func attributes(endpoint: EndpointID, cluster: ClusterID) -> [AttributeInfo] {
        clusterTable[endpoint]?[cluster]?.attributes ?? []
    }

    func acceptedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandInfo] {
        clusterTable[endpoint]?[cluster]?.commands ?? []
    }

    func generatedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandID] {
        clusterTable[endpoint]?[cluster]?.generated ?? []
    }

    func events(endpoint: EndpointID, cluster: ClusterID) -> [EventInfo] {
        endpoint == EndpointID(2) && cluster == .doorLock
            ? [EventInfo(.DoorLock.lockOperation), EventInfo(.DoorLock.doorLockAlarm)] : []
    }

    func dataVersion(endpoint: EndpointID, cluster: ClusterID) -> UInt32 {
        clusterTable[endpoint]?[cluster]?.version ?? 0
    }

    func readAttribute(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue {
        guard var value = values[path] else { throw StatusIB(.failure) }
        if path.attribute == Fake.fabricListAttribute, context.isFabricFiltered, case .array(let entries) = value {
            value = .array(entries.filter { $0[context: 0xFE]?.uint == UInt64(context.subject.fabricIndex) })
        }
        return value
    }

    func writeAttribute(_ path: ConcreteAttributePath, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        switch write {
        case .replace(let value):
            if path.attribute == Fake.timedAttribute {
                guard case .unsigned(let v) = value, v <= 100 else { throw StatusIB(.constraintError) }
            }
            if path.attribute == Fake.fabricListAttribute, case .array(let entries) = value,
                case .array(let old)? = values[path]
            {
                // Replace only the accessing fabric's entries.
                let others = old.filter { $0[context: 0xFE]?.uint != UInt64(context.subject.fabricIndex) }
                values[path] = .array(others + entries)
            } else {
                values[path] = value
            }
        case .append(let item):
            guard case .array(let entries)? = values[path] else { throw StatusIB(.failure) }
            values[path] = .array(entries + [TLVElement(item)])
        }
        changed(path)
    }

    func listWriteFinished(_ path: ConcreteAttributePath, context: InteractionContext) {
        finishedListWrites.append(path)
    }

    func invoke(_ path: ConcreteCommandPath, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        invoked.append(path)
        switch (path.cluster, path.command) {
        case (.onOff, .OnOff.toggle):
            set(
                at(path.endpoint.rawValue, .onOff, .OnOff.onOff),
                .bool(!(values[at(path.endpoint.rawValue, .onOff, .OnOff.onOff)]?.asBool ?? false)))
        case (.onOff, .OnOff.on):
            set(at(path.endpoint.rawValue, .onOff, .OnOff.onOff), .bool(true))
        case (.onOff, .OnOff.off):
            set(at(path.endpoint.rawValue, .onOff, .OnOff.onOff), .bool(false))
        case (Fake.testCluster, Fake.echoCommand):
            guard let value = fields[context: 0]?.uint else { throw StatusIB(.invalidCommand) }
            return CommandResponse(
                command: Fake.echoResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(value))
                ]))
        case (Fake.testCluster, Fake.failingCommand):
            throw .cluster(5)
        default:
            break
        }
        return nil
    }

    func checkAccess(
        _ subject: SubjectDescriptor, endpoint: EndpointID, cluster: ClusterID,
        privilege: Privilege
    ) -> Bool {
        switch subject.authMode {
        case .pase: return true
        case .case: return grants[subject.subject].map { $0 >= privilege } ?? false
        case .group: return false
        }
    }

    func eventRecords(from number: UInt64) -> [EventRecord] { events.filter { $0.number >= number } }

    // MARK: Changes

    func set(_ path: ConcreteAttributePath, _ value: TLVValue) {
        values[path] = value
        changed(path)
    }

    func changed(_ path: ConcreteAttributePath) {
        clusterTable[path.endpoint]?[path.cluster]?.version &+= 1
        observer?.attributesChanged([
            AttributeChange(
                endpoint: path.endpoint, cluster: path.cluster,
                attribute: path.attribute,
                dataVersion: dataVersion(endpoint: path.endpoint, cluster: path.cluster))
        ])
    }

    func record(_ event: EventRecord) {
        events.append(event)
        observer?.eventRecorded(event.path)
    }
}

extension TLVValue {
    var asBool: Bool? {
        if case .bool(let v) = self { v } else { nil }
    }
}
