import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

/// Turns EventReportIBs into ``EventValue``s: delta timestamps resolved against the previous event of
/// the same report sequence, fields named from `ClusterRegistry.standard`.
struct EventDecoder {
    private var lastEpoch: UInt64?
    private var lastSystem: UInt64?

    mutating func decode(_ reports: [EventReportIB]) -> EventReadResult {
        var events: [EventValue] = []
        var statuses: [EventPathStatus] = []
        for report in reports {
            switch report {
            case .status(let status): statuses.append(EventPathStatus(path: status.path, status: status.status))
            case .data(let data):
                if let event = decode(data) { events.append(event) }
            }
        }
        return EventReadResult(events: events, statuses: statuses)
    }

    private mutating func decode(_ data: EventDataIB) -> EventValue? {
        guard let path = data.path.concrete else { return nil }
        let timestamp: EventValue.Timestamp
        switch data.timestamp {
        case .epoch(let ms):
            timestamp = .epoch(ms)
            lastEpoch = ms
        case .system(let ms):
            timestamp = .system(ms)
            lastSystem = ms
        case .deltaEpoch(let delta):
            let ms = (lastEpoch ?? 0) &+ delta
            timestamp = .epoch(ms)
            lastEpoch = ms
        case .deltaSystem(let delta):
            let ms = (lastSystem ?? 0) &+ delta
            timestamp = .system(ms)
            lastSystem = ms
        }
        let schema = ClusterRegistry.standard.cluster(path.cluster)?.event(path.event)
        var fields: [EventValue.Field] = []
        if case .structure(let members)? = data.data {
            for member in members {
                guard case .context(let tag) = member.tag else { continue }
                let name = schema?.fields.first { $0.tag == tag }?.name ?? String(tag)
                fields.append(EventValue.Field(tag: tag, name: name, value: member.value))
            }
        }
        return EventValue(
            path: path, eventNumber: data.eventNumber, priority: data.priority, timestamp: timestamp,
            data: data.data, fields: fields, name: schema?.name)
    }
}
