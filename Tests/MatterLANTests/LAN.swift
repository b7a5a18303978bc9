import Foundation
import MatterTestSupport

/// The virtual LAN of `scripts/lan.sh` that a wrapper script (scripts/lib/suite.sh) brought up for one
/// suite, read from the environment it exports: `MATTER_LAN_SUITE` (which suite may use it),
/// `MATTER_LAN_PREFIX`, `MATTER_LAN_HOSTS` (how many hosts), `MATTER_LAN_STATE` and `MATTER_LAN_SCRIPT`
/// (the absolute path of lan.sh). Without them (a plain `swift test`) there is no LAN and the LAN suites
/// are skipped.
struct LAN: Sendable {
    let suite: String
    let prefix: String
    let hostCount: Int
    let stateDirectory: String
    let script: String

    static let current: LAN? = {
        let environment = ProcessInfo.processInfo.environment
        guard let suite = environment["MATTER_LAN_SUITE"], let prefix = environment["MATTER_LAN_PREFIX"],
            let hosts = environment["MATTER_LAN_HOSTS"].flatMap({ Int($0) }), hosts > 0,
            let state = environment["MATTER_LAN_STATE"], let script = environment["MATTER_LAN_SCRIPT"],
            FileManager.default.isExecutableFile(atPath: script)
        else { return nil }
        return LAN(suite: suite, prefix: prefix, hostCount: hosts, stateDirectory: state, script: script)
    }()

    /// Whether the LAN is up for `suite` (the trait condition of each LAN suite).
    static func isUp(for suite: String) -> Bool { current?.suite == suite }

    /// The LAN for `suite`, or a thrown error when the suite runs without it.
    static func required(for suite: String) throws -> LAN {
        guard let lan = current, lan.suite == suite else { throw LANError.notUp(suite) }
        return lan
    }

    /// Host `index` (1-based): `PREFIX-hINDEX`.
    func host(_ index: Int) -> String { "\(prefix)-h\(index)" }

    /// The IPv4 address lan.sh gives host `index`.
    func ipv4(_ index: Int) -> String { "10.213.0.\(index)" }

    /// The bridge's namespace.
    var bridgeNamespace: String { "\(prefix)-lan" }

    /// The command line that runs `command` inside `host` (its network namespace and private /run).
    func inHost(_ host: String, _ command: [String]) -> [String] { [script, "exec", host] + command }

    /// Runs `lan.sh ARGUMENTS` (down, avahi-stop HOST, avahi-start HOST, ...).
    @discardableResult
    func control(_ arguments: [String], timeout: Double = 60) throws -> ProcessResult {
        try ProcessRunner.run([script] + arguments, limit: .seconds(timeout))
    }

    /// Runs `command` inside `host` to completion.
    func run(_ host: String, _ command: [String], timeout: Double = 60) throws -> ProcessResult {
        try ProcessRunner.run(inHost(host, command), limit: .seconds(timeout))
    }

    /// Starts `command` inside `host` in the background.
    func start(_ host: String, _ command: [String], name: String, in work: WorkDirectory) throws -> RunningProcess {
        try RunningProcess(inHost(host, command), name: name, in: work, input: .pipe)
    }

    /// The PIDs lan.sh recorded for its hosts' holders, D-Bus and Avahi daemons.
    func daemonPIDs() -> [Int32] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        return files.filter { $0.hasPrefix(prefix + "-h") && $0.hasSuffix(".pid") }.compactMap { file in
            (try? String(contentsOfFile: stateDirectory + "/" + file, encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// The IPv6 link-local address of `host`'s lan0, if it has one.
    func linkLocal(_ host: String) throws -> String? {
        let result = try ProcessRunner.run(
            ["ip", "-n", host, "-6", "-o", "addr", "show", "dev", "lan0", "scope", "link"], limit: .seconds(60))
        for word in result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix("fe80:") {
            return String(word.split(separator: "/")[0])
        }
        return nil
    }
}

enum LANError: Error, CustomStringConvertible {
    case notUp(String)
    case timedOut(String)
    case unexpected(String)

    var description: String {
        switch self {
        case .notUp(let suite): "the virtual LAN for the \(suite) suite is not up (run it through its scripts/ wrapper)"
        case .timedOut(let what): "timed out: \(what)"
        case .unexpected(let what): what
        }
    }
}
