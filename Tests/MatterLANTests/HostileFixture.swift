import Foundation
import MatterTestSupport

/// What the hostile suite's serialized tests share: the device, the controller, the stats before and
/// after the attack, the toggler's tally and the hostile peer's summary.
// @unchecked Sendable: used by one serialized suite and its toggler thread; guarded by `lock`.
final class HostileFixture: @unchecked Sendable {
    static let shared = HostileFixture()

    private let lock = NSLock()
    private var directory: WorkDirectory?
    private var started: DeviceProcess?
    private var state = State()

    struct State {
        var before: [String: JSONScalar]?
        var after: [String: JSONScalar]?
        var summary: [String: Any]?
        var toggles = Toggler.Tally()
        var losses: Int64 = 0
        var targets: [String] = []
        var figures: [String] = []
    }

    private func with<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    var before: [String: JSONScalar]? {
        get { with { $0.before } }
        set { with { $0.before = newValue } }
    }
    var after: [String: JSONScalar]? {
        get { with { $0.after } }
        set { with { $0.after = newValue } }
    }
    var summary: [String: Any]? {
        get { with { $0.summary } }
        set { with { $0.summary = newValue } }
    }
    var toggles: Toggler.Tally {
        get { with { $0.toggles } }
        set { with { $0.toggles = newValue } }
    }
    var losses: Int64 {
        get { with { $0.losses } }
        set { with { $0.losses = newValue } }
    }
    var targets: [String] {
        get { with { $0.targets } }
        set { with { $0.targets = newValue } }
    }
    var figures: [String] {
        get { with { $0.figures } }
        set { with { $0.figures = newValue } }
    }

    func work() throws -> WorkDirectory {
        lock.lock()
        defer { lock.unlock() }
        if let directory { return directory }
        let made = try WorkDirectory(prefix: "hostile")
        directory = made
        return made
    }

    /// The on-off light on host 1 with a stats line every second (started once).
    func device() throws -> DeviceProcess {
        lock.lock()
        let existing = started
        lock.unlock()
        if let existing { return existing }
        let lan = try LAN.required(for: HostileTests.suiteName)
        let device = try DeviceProcess(
            "device", on: lan.host(1), lan: lan, work: try work(),
            [
                "--type", "on-off-light", "--secured-device-port", "\(HostileTests.port)", "--discriminator", "3201",
                "--passcode", "20202021", "--stats-interval", "1",
            ])
        lock.lock()
        started = device
        lock.unlock()
        return device
    }

    /// `matter-emu ARGUMENTS --state-dir CONTROLLER` in host 2.
    func ctl(_ arguments: [String]) throws -> ProcessResult {
        let lan = try LAN.required(for: HostileTests.suiteName)
        return try lan.run(
            lan.host(2), [BuiltBinaries.matterEmu] + arguments + ["--state-dir", try work().path("controller")])
    }

    private var target: [String] {
        let lan = LAN.current
        return ["--address", "\(lan?.ipv4(1) ?? "10.213.0.1"):\(HostileTests.port)", "--timeout", "5"]
    }

    /// Toggles node 1; true when the command succeeded.
    func toggle() throws -> Bool { try toggleResult().exitCode == 0 }

    func toggleResult() throws -> ProcessResult { try ctl(["onoff", "toggle", "1"] + target) }

    /// Node 1's OnOff, or nil when the read failed.
    func readOnOff() throws -> Bool? {
        let result = try ctl(["onoff", "read", "on-off", "1", "--json"] + target)
        guard result.exitCode == 0 else { return nil }
        return (try? result.json())?["value"] as? Bool
    }

    /// The figures for docs/RELIABILITY.md, on stdout.
    func printFigures(seed: String) {
        let s = summary ?? [:]
        let kinds = (s["kinds"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let t = toggles
        let latencies = t.latenciesMS.sorted()
        let latency =
            latencies.isEmpty
            ? "p50 - ms, max - ms"
            : "p50 \(latencies[(latencies.count + 1) / 2 - 1]) ms, max \(latencies[latencies.count - 1]) ms"
        var lines = [
            "hostile peer \(s["sent"] ?? "-") datagrams in \(s["seconds"] ?? "-") s (\(s["rate"] ?? "-")/s, seed \(seed)) at \(targets.joined(separator: " "))",
            "kinds \(kinds.joined(separator: ", "))",
            "device answered the hostile peer \(s["replies"] ?? "-") times; kernel dropped \(losses)",
            "toggles during the attack: \(t.succeeded) ok, \(t.failed) failed; latency (new CLI process) \(latency)",
            "RSS after commissioning \(before?["rssKB"]?.int ?? -1) kB, after the attack \(after?["rssKB"]?.int ?? -1) kB, peak \(after?["peakRssKB"]?.int ?? -1) kB",
        ]
        lines += figures
        for line in lines { print("hostile: figures: \(line)") }
    }
}

extension DeviceProcess {
    /// Its latest stats line.
    var latestStats: [String: JSONScalar]? {
        process.lines.last { $0.contains("\"event\":\"stats\"") }.flatMap(JSONScalar.object)
    }

    /// Waits (up to 5 s) for a stats line printed after now and returns it.
    func freshStats() -> [String: JSONScalar]? {
        let count = process.lines.filter { $0.contains("\"event\":\"stats\"") }.count
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && process.lines.filter({ $0.contains("\"event\":\"stats\"") }).count <= count {
            Thread.sleep(forTimeInterval: 0.1)
        }
        return latestStats
    }
}

extension LAN {
    /// Datagrams the kernel dropped on the way to the device: UDP receive errors (a full socket buffer)
    /// for IPv4 and IPv6 on host 1, and drops on every interface of host 1, host 3 and the bridge.
    func networkLosses() throws -> Int64 {
        var total: Int64 = 0
        let snmp = try ProcessRunner.run(
            ["ip", "netns", "exec", host(1), "cat", "/proc/net/snmp", "/proc/net/snmp6"], limit: .seconds(60))
        let lines = snmp.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let udp = lines.filter { $0.first == "Udp:" }
        if udp.count >= 2, let column = udp[0].firstIndex(of: "InErrors"), column < udp[1].count {
            total += Int64(udp[1][column]) ?? 0
        }
        for line in lines where line.first == "Udp6InErrors" && line.count >= 2 { total += Int64(line.last ?? "") ?? 0 }
        for namespace in [host(1), host(3), bridgeNamespace] {
            let drops = try ProcessRunner.run(
                [
                    "ip", "netns", "exec", namespace, "sh", "-c",
                    "cat /sys/class/net/*/statistics/rx_dropped /sys/class/net/*/statistics/tx_dropped",
                ], limit: .seconds(60))
            total += drops.lines.compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.reduce(0, +)
        }
        return total
    }
}
