import MatterClusters
public import MatterCore
public import MatterDataModel
import MatterInteraction
public import MatterTLV

/// Something a running device reports: a state change or a commissioning event, with its fields
/// (for `--json`) and the line a person reads (``description``).
public enum DeviceEvent: Sendable, CustomStringConvertible {
    /// An attribute changed (`value` is its new value), or, with `attribute` nil, a cluster's note.
    case attribute(endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID?, value: TLVValue?, text: String)
    /// A PASE session was established with `peer`.
    case paseEstablished(peer: String)
    /// A PASE handshake failed.
    case paseFailed(reason: String)
    /// A CASE session was established with a node of a fabric.
    case caseEstablished(nodeID: NodeID, fabricIndex: UInt8)
    /// The committed fabrics changed; their indexes now.
    case fabricsChanged([UInt8])
    /// The commissioning window opened or closed.
    case commissioningWindow(open: Bool)
    /// The device booted again in this process (control plane `reboot` or `factory-reset`).
    case rebooted(reason: DeviceBootReason, factoryReset: Bool)
    /// The device went `offline` (answers nothing, advertises nothing) or came back `online`.
    case network(online: Bool)
    /// A cluster recorded an event (BooleanState StateChange, DoorLock LockOperation...).
    case clusterEvent(RecordedEvent)

    /// The event for a data-model state change.
    init(_ change: StateChange) {
        self = .attribute(
            endpoint: change.endpoint, cluster: change.cluster, attribute: change.attribute, value: change.value,
            text: change.text)
    }

    /// The human-readable line, as the device prints it.
    public var description: String {
        switch self {
        case .attribute(_, _, _, _, let text): text
        case .paseEstablished(let peer): "PASE session established with \(peer)"
        case .paseFailed(let reason): "PASE failed: \(reason)"
        case .caseEstablished(let nodeID, let fabricIndex):
            "CASE session established with node \(nodeID) on fabric \(fabricIndex)"
        case .fabricsChanged(let indexes): "fabrics: \(indexes.map(String.init))"
        case .commissioningWindow(let open): open ? "commissioning window open" : "commissioning window closed"
        case .rebooted(let reason, let factoryReset):
            factoryReset ? "factory reset; booted (\(reason.name))" : "rebooted (\(reason.name))"
        case .network(let online): online ? "online" : "offline: not answering, not advertising"
        case .clusterEvent(let event): Self.describe(event)
        }
    }

    /// `event 1 BooleanState.StateChange #5: {"stateValue":true}`.
    static func describe(_ event: RecordedEvent) -> String {
        let schema = ClusterRegistry.standard.cluster(event.path.cluster)
        let eventSchema = schema?.events.first { $0.id == event.path.event }
        let name = "\(schema?.name ?? "\(event.path.cluster)").\(eventSchema?.name ?? "\(event.path.event)")"
        let fields = eventSchema.map {
            ClusterValueCodec.format(event.fields, as: .structure(StructSchema($0.name, $0.fields)))
        }
        return "event \(event.path.endpoint.rawValue) \(name) #\(event.number)" + (fields.map { ": " + $0 } ?? "")
    }
}
