import Foundation
import Synchronization

/// The last events of each device the dashboard shows as its event log: everything a device reports
/// but attribute values (which the page shows live, and which a thermostat's room changes every
/// second): cluster events, notes, commissioning, fabrics, network, reboots. Bounded per device.
final class WebEventLog: Sendable {
    /// Entries kept per device.
    let capacity: Int
    private let entries = Mutex([Int: [String]]())

    init(capacity: Int = 32) { self.capacity = capacity }

    /// Keeps `line` (one JSON object) as the newest entry of device `index`.
    func append(device index: Int, _ line: String) {
        entries.withLock { entries in
            var list = entries[index, default: []]
            if list.count >= capacity { list.removeFirst(list.count - capacity + 1) }
            list.append(line)
            entries[index] = list
        }
    }

    /// The newest `limit` entries of device `index`, oldest first, as JSON objects.
    func entries(device index: Int, limit: Int) -> [Any] {
        let lines = entries.withLock { $0[index] ?? [] }.suffix(limit)
        return lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }
}
