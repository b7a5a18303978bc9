import Foundation
import MatterDevice
import Synchronization

/// `matter-emu device --stats-interval SECONDS`: prints the device's counters (received, sent, dropped
/// by reason, handshake outcomes), its occupancy (sessions, exchanges, retransmissions) and its resident
/// memory every interval, and once more with `"final": true` when the device stops.
final class DeviceStatsReporter: Sendable {
    private let host: DeviceHost
    private let interval: Duration
    private let output: OutputSink
    private let json: Bool
    private let started = ContinuousClock.now
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(host: DeviceHost, intervalSeconds: Double, output: OutputSink, json: Bool) {
        self.host = host
        interval = .milliseconds(Int64(intervalSeconds * 1000))
        self.output = output
        self.json = json
    }

    /// Starts the periodic lines.
    func start() {
        let loop = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await report(final: false)
            }
        }
        task.withLock { $0 = loop }
    }

    /// Stops the periodic lines and prints the final one.
    func finish() async {
        task.withLock { $0 }?.cancel()
        await report(final: true)
    }

    private func report(final: Bool) async {
        let stats = await host.device.statistics()
        let memory = ResidentMemory.current()
        let uptime = ContinuousClock.now - started
        let seconds = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
        if json {
            var members: [(String, JSONValue)] = [
                ("event", .string("stats")), ("final", .bool(final)),
                ("uptimeSeconds", .double((seconds * 10).rounded() / 10)),
                ("rssKB", memory.map { .uint(UInt64($0.residentKB)) } ?? .null),
                ("peakRssKB", memory.map { .uint(UInt64($0.peakKB)) } ?? .null),
            ]
            members += stats.counters.map { ($0.name, .int(Int64($0.value))) }
            output.print(JSONValue.object(members).serialized(pretty: false))
        } else {
            let rss =
                memory.map {
                    String(
                        format: "rss %.1f MB (peak %.1f MB)", Double($0.residentKB) / 1024,
                        Double($0.peakKB) / 1024)
                } ?? "rss unknown"
            output.print("\(final ? "final stats" : "stats"): \(rss); \(stats)")
        }
    }
}

/// This process's resident set size, from /proc/self/status (Linux).
struct ResidentMemory {
    /// VmRSS, kilobytes.
    let residentKB: Int
    /// VmHWM (the peak resident set size), kilobytes.
    let peakKB: Int

    static func current() -> ResidentMemory? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else {
                return nil
            }
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        guard let resident = field("VmRSS") else { return nil }
        return ResidentMemory(residentKB: resident, peakKB: field("VmHWM") ?? resident)
    }
}
