import Foundation
import Glibc
import MatterDevice
import MatterHTTP

/// `/metrics` in Prometheus's text format (0.0.4): per device (label `device`, and `type`) and in total,
/// the counters `DeviceStatistics` keeps, sessions, fabrics, online and commissionable state; the
/// process's resident memory and CPU time; the open event streams.
enum WebMetrics {
    /// Counters and gauges taken from `DeviceStatistics.counters`: (counter name, metric, help, kind).
    static let deviceMetrics: [(counter: String, metric: String, help: String, kind: String)] = [
        ("received", "matter_device_datagrams_received_total", "Datagrams received.", "counter"),
        ("sent", "matter_device_datagrams_sent_total", "Datagrams sent.", "counter"),
        ("retransmitted", "matter_device_retransmissions_total", "MRP retransmissions.", "counter"),
        ("droppedTotal", "matter_device_datagrams_dropped_total", "Datagrams dropped, every reason.", "counter"),
        ("paseEstablished", "matter_device_pase_established_total", "PASE sessions established.", "counter"),
        ("caseEstablished", "matter_device_case_established_total", "CASE sessions established.", "counter"),
        ("secureSessions", "matter_device_secure_sessions", "Secure sessions (PASE and CASE) now.", "gauge"),
        ("openExchanges", "matter_device_open_exchanges", "Open exchanges now.", "gauge"),
    ]

    static func render(_ nodes: WebNodes, hub: HTTPEventHub) async -> String {
        var families: [String: [String]] = [:]
        var totals: [String: Int] = [:]
        var fabricsTotal = 0
        var subscriptionsTotal = 0
        var online = 0
        // Every device's snapshot, 64 visits in flight at a time (each on its own node's queue).
        var snapshots = [DeviceMetricsSnapshot?](repeating: nil, count: nodes.hosts.count)
        await withTaskGroup(of: (Int, DeviceMetricsSnapshot).self) { group in
            var next = 0
            func add() {
                guard next < nodes.hosts.count else { return }
                let index = next
                let device = nodes.hosts[index].device
                group.addTask { (index, await device.metricsSnapshot()) }
                next += 1
            }
            for _ in 0..<64 { add() }
            for await (index, snapshot) in group {
                snapshots[index] = snapshot
                add()
            }
        }
        for (index, host) in nodes.hosts.enumerated() {
            guard let snapshot = snapshots[index] else { continue }
            let device = host.device
            let labels = #"device="\#(index)",type="\#(escape(device.configuration.deviceType))""#
            let counters = Dictionary(
                snapshot.statistics.counters.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
            for metric in deviceMetrics {
                let value = counters[metric.counter] ?? 0
                families[metric.metric, default: []].append("\(metric.metric){\(labels)} \(value)")
                totals[metric.metric, default: 0] += value
            }
            subscriptionsTotal += snapshot.subscriptions
            families["matter_device_subscriptions", default: []].append(
                "matter_device_subscriptions{\(labels)} \(snapshot.subscriptions)")
            fabricsTotal += snapshot.fabrics
            if device.isOnline { online += 1 }
            families["matter_device_fabrics", default: []].append(
                "matter_device_fabrics{\(labels)} \(snapshot.fabrics)")
            families["matter_device_online", default: []].append(
                "matter_device_online{\(labels)} \(device.isOnline ? 1 : 0)")
            families["matter_device_commissionable", default: []].append(
                "matter_device_commissionable{\(labels)} \(snapshot.commissionable ? 1 : 0)")
        }
        var out = ""
        func family(_ name: String, _ help: String, _ kind: String, _ lines: [String]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind)\n"
            for line in lines { out += line + "\n" }
        }
        for metric in deviceMetrics {
            family(metric.metric, metric.help, metric.kind, families[metric.metric] ?? [])
            let total = metric.metric.replacingOccurrences(of: "matter_device_", with: "matter_")
            family(total, metric.help + " All devices.", metric.kind, ["\(total) \(totals[metric.metric] ?? 0)"])
        }
        family(
            "matter_device_subscriptions", "Subscriptions served now.", "gauge",
            families["matter_device_subscriptions"] ?? [])
        family(
            "matter_subscriptions", "Subscriptions served now, all devices.", "gauge",
            ["matter_subscriptions \(subscriptionsTotal)"])
        family("matter_device_fabrics", "Committed fabrics.", "gauge", families["matter_device_fabrics"] ?? [])
        family("matter_device_online", "1 while the device is online.", "gauge", families["matter_device_online"] ?? [])
        family(
            "matter_device_commissionable", "1 while a commissioning window is open.", "gauge",
            families["matter_device_commissionable"] ?? [])
        family("matter_devices", "Devices in this process.", "gauge", ["matter_devices \(nodes.hosts.count)"])
        family("matter_devices_online", "Devices online.", "gauge", ["matter_devices_online \(online)"])
        family("matter_fabrics", "Committed fabrics, all devices.", "gauge", ["matter_fabrics \(fabricsTotal)"])
        family(
            "matter_http_event_streams", "Event streams open.", "gauge",
            ["matter_http_event_streams \(hub.subscriberCount)"])
        if let memory = ResidentMemory.current() {
            family(
                "process_resident_memory_bytes", "Resident memory size in bytes.", "gauge",
                ["process_resident_memory_bytes \(memory.residentKB * 1024)"])
        }
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            let seconds =
                Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
                + Double(usage.ru_stime.tv_usec) / 1e6
            family(
                "process_cpu_seconds_total", "User and system CPU time, seconds.", "counter",
                ["process_cpu_seconds_total \(seconds)"])
        }
        return out
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format asks.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
