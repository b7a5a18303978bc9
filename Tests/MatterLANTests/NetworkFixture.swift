import Foundation
import MatterTestSupport

/// State the network suite's serialized tests share, in source order: the publishers A and B on
/// host 1, their names, and every PID that must be gone after `lan.sh down`.
// @unchecked Sendable: used by one serialized suite whose tests run on different tasks.
final class NetworkFixture: @unchecked Sendable {
    static let shared = NetworkFixture()

    static let compressedFabricID = "87E1B004E235A130"
    static let operationalName = "87E1B004E235A130-8FC7772401CD0696"

    private let lock = NSLock()
    private var work: WorkDirectory?
    private var publishers: (a: ProbePublisher, b: ProbePublisher)?
    private var kept: [String: Any] = [:]
    private var rememberedPIDs: [Int32] = []

    /// Every PID of a probe or daemon seen so far.
    var pids: [Int32] {
        lock.lock()
        defer { lock.unlock() }
        return rememberedPIDs
    }

    /// Keeps a value from one test for the next (tests run in source order).
    func keep(_ key: String, _ value: Any?) {
        lock.lock()
        kept[key] = value
        lock.unlock()
    }

    func kept(_ key: String) -> ProbePublisher? { value(key) as? ProbePublisher }
    func keptName(_ key: String) -> String? { value(key) as? String }
    func keptBrowse(_ key: String) -> ProbeBrowse? { value(key) as? ProbeBrowse }

    private func value(_ key: String) -> Any? {
        lock.lock()
        defer { lock.unlock() }
        return kept[key]
    }

    func workDirectory() throws -> WorkDirectory {
        lock.lock()
        defer { lock.unlock() }
        if let work { return work }
        let made = try WorkDirectory(prefix: "network")
        work = made
        return made
    }

    /// Starts `matter-dnssd-probe publish ARGUMENTS` in `host`.
    func publish(_ name: String, on host: String, _ arguments: [String]) throws -> ProbePublisher {
        let lan = try LAN.required(for: NetworkTests.suiteName)
        let process = try lan.start(
            host, [BuiltBinaries.probe, "publish"] + arguments, name: name, in: try workDirectory())
        remember([process.pid])
        return ProbePublisher(process: process)
    }

    /// A: the full-featured node on host 1 (commissionable + operational, raw records); B: a second node
    /// there on the probing path (`--probe`), so every browse check covers both paths. Started once.
    func nodes() throws -> (a: ProbePublisher, b: ProbePublisher) {
        lock.lock()
        let existing = publishers
        lock.unlock()
        if let existing { return existing }
        let lan = try LAN.required(for: NetworkTests.suiteName)
        let a = try publish(
            "a", on: lan.host(1),
            [
                "--discriminator", "3840", "--vendor", "65521", "--product", "32769", "--device-type", "257", "--cm",
                "1",
                "--name", "Light", "--ph", "33", "--sii", "5000", "--sai", "300", "--sat", "4000", "--tcp", "4",
                "--operational", Self.operationalName,
            ])
        let b = try publish(
            "b", on: lan.host(1),
            ["--discriminator", "1234", "--vendor", "65522", "--device-type", "266", "--cm", "0", "--probe"])
        guard a.waitUntilReady(), b.waitUntilReady() else {
            throw LANError.unexpected(
                "publish on \(lan.host(1)) failed:\n\(a.process.stdout)\(a.process.stderr)\n\(b.process.stdout)\(b.process.stderr)"
            )
        }
        lock.lock()
        publishers = (a, b)
        lock.unlock()
        return (a, b)
    }

    /// A's and B's commissionable instance names.
    func names() throws -> (a: String, b: String) {
        let (a, b) = try nodes()
        guard let nameA = a.established("commissionable"), let nameB = b.established("commissionable") else {
            throw LANError.unexpected("no established commissionable line")
        }
        return (nameA, nameB)
    }

    func remember(_ more: [Int32]) {
        lock.lock()
        rememberedPIDs += more
        lock.unlock()
    }
}
