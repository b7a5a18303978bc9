import MatterClusters
import MatterCore
import MatterDataModel
import MatterDevice
import MatterInteraction

/// A device event as JSON fields for `--json` (one line each): what changed, not a sentence.
///
/// `{"event":"attribute","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}`; a cluster's
/// note is `{"event":"note",...,"text":...}`; commissioning events are `pase-established` (`peer`),
/// `pase-failed` (`reason`), `case-established` (`nodeID`, `fabricIndex`), `fabrics`
/// (`fabricIndexes`), `commissioning-window` (`open`), `rebooted` (`bootReason`, `factoryReset`) and
/// `network` (`online`); an event a cluster recorded is `cluster-event` (`endpoint`, `cluster`, `name`,
/// `number`, `priority`, `fields`).
enum DeviceEventJSON {
    static func fields(_ event: DeviceEvent) -> [(String, JSONValue)] {
        switch event {
        case .attribute(let endpoint, let cluster, let attribute, let value, let text):
            let schema = ClusterRegistry.standard.cluster(cluster)
            var fields: [(String, JSONValue)] = [
                ("event", .string(attribute == nil ? "note" : "attribute")),
                ("endpoint", .uint(UInt64(endpoint.rawValue))),
                ("cluster", .string(schema?.name ?? "0x" + hexDigits(cluster.rawValue, width: 4))),
            ]
            if let attribute {
                let attributeSchema = schema?.allAttributes.first { $0.id == attribute }
                fields.append(
                    ("attribute", .string(attributeSchema?.name ?? "0x" + hexDigits(attribute.rawValue, width: 4))))
                fields.append(("value", value.map { TLVJSON.json($0, as: attributeSchema?.type) } ?? .null))
            } else {
                fields.append(("text", .string(text)))
            }
            return fields
        case .paseEstablished(let peer):
            return [("event", .string("pase-established")), ("peer", .string(peer))]
        case .paseFailed(let reason):
            return [("event", .string("pase-failed")), ("reason", .string(reason))]
        case .caseEstablished(let nodeID, let fabricIndex):
            return [
                ("event", .string("case-established")), ("nodeID", .uint(nodeID.rawValue)),
                ("fabricIndex", .uint(UInt64(fabricIndex))),
            ]
        case .fabricsChanged(let indexes):
            return [("event", .string("fabrics")), ("fabricIndexes", .array(indexes.map { .uint(UInt64($0)) }))]
        case .commissioningWindow(let open):
            return [("event", .string("commissioning-window")), ("open", .bool(open))]
        case .rebooted(let reason, let factoryReset):
            return [
                ("event", .string("rebooted")), ("bootReason", .string(reason.name)),
                ("factoryReset", .bool(factoryReset)),
            ]
        case .network(let online):
            return [("event", .string("network")), ("online", .bool(online))]
        case .clusterEvent(let event):
            let schema = ClusterRegistry.standard.cluster(event.path.cluster)
            let eventSchema = schema?.events.first { $0.id == event.path.event }
            return [
                ("event", .string("cluster-event")), ("endpoint", .uint(UInt64(event.path.endpoint.rawValue))),
                ("cluster", .string(schema?.name ?? "0x" + hexDigits(event.path.cluster.rawValue, width: 4))),
                ("name", .string(eventSchema?.name ?? "0x" + hexDigits(event.path.event.rawValue, width: 4))),
                ("number", .uint(event.number)), ("priority", .string(event.priority.name)),
                (
                    "fields",
                    TLVJSON.json(
                        event.fields, as: eventSchema.map { .structure(StructSchema($0.name, $0.fields)) })
                ),
            ]
        }
    }
}
