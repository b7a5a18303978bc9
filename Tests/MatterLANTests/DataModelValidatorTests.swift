import Foundation
import MatterTestSupport
import Testing

/// The data-model conformance suite (docs/CONFORMANCE.md; run by scripts/test-dmv.sh on the virtual LAN of
/// scripts/lan.sh, root): for every device type that `matter-emu device --help` lists, the connectedhomeip
/// SDK's Python controller (scripts/interop/chip_driver.py, venv `CHIP_VENV`) in host 2 commissions a device
/// in host 1 and reads every attribute with one wildcard path, written as a chip-tool wildcard log; then
/// scripts/interop/dm_check.py, in the venv of esp-matter-dm-validator 1.0.5 (`DMV_VENV`), checks that the
/// validator's parser sees the whole read and judges the data model at the Matter version the device
/// reports, and prints its findings at `DMV_INFO_VERSION` (default 1.5) as information. One test case per
/// device type; each driver's `[FAIL]` line is an issue of its own. `DMV_KEEP` (a directory) keeps the logs.
@Suite(.serialized, .enabled(if: LAN.isUp(for: "dmv"), "needs the LAN of scripts/test-dmv.sh"))
struct DataModelValidatorTests {
    static let suiteName = "dmv"
    let lan: LAN

    init() throws { lan = try LAN.required(for: Self.suiteName) }

    /// The device types of `matter-emu device --help` (its `--type TYPE` line), read only when this suite runs.
    static let deviceTypes: [String] = {
        guard LAN.isUp(for: suiteName),
            let help = try? ProcessRunner.run([BuiltBinaries.matterEmu, "device", "--help"], limit: .seconds(60))
        else { return [] }
        guard
            let line = (help.stdout + "\n" + help.stderr).split(separator: "\n").first(where: {
                $0.contains("--type TYPE")
            })
        else { return [] }
        let list = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).joined(separator: " ")
        let types = list.replacingOccurrences(of: "(default)", with: "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        // DMV_TYPES (a comma-separated list) keeps a developer's run to some types; CI runs them all.
        guard let only = ProcessInfo.processInfo.environment["DMV_TYPES"]?.split(separator: ",").map(String.init),
            !only.isEmpty
        else { return types }
        return types.filter(only.contains)
    }()

    /// The bridged devices of the aggregator's case: a bridge of 100 of six types.
    static let bridgedMix =
        "on-off-light:40,dimmable-light:10,temperature-sensor:20,contact-sensor:10,window-covering:10,thermostat:10"

    @Test("matter-emu device --help lists the device types")
    func typesListed() {
        #expect(!Self.deviceTypes.isEmpty, "no --type TYPE line with types in matter-emu device --help")
    }

    @Test("the data model conforms (SDK wildcard read, esp-matter-dm-validator)", arguments: deviceTypes)
    func conforms(type: String) throws {
        let environment = ProcessInfo.processInfo.environment
        let work = try WorkDirectory(prefix: "dmv-\(type)")
        defer {
            if let keep = environment["DMV_KEEP"], !keep.isEmpty { Self.keep(work, in: keep) }
            work.remove()
        }
        let wildcardLog = work.path("\(type).wildcard.log")
        // A bridge is judged with bridged devices of several types (each endpoint its type and Bridged Node).
        let bridged = type == "aggregator" ? ["--bridged", Self.bridgedMix] : []
        let device = try DeviceProcess(
            type, on: lan.host(1), lan: lan, work: work,
            ["--type", type, "--discriminator", "3840", "--passcode", "20202021"] + bridged)
        let read = try Referee.run(
            type,
            lan.inHost(
                lan.host(2),
                [
                    "timeout", "240", Referee.chipPython, Referee.script("chip_driver.py"), "--paa",
                    Referee.paaTrustStore, "--work", "/data/chip-dmv-\(type)", "--passcode", "20202021",
                    "--discriminator", "3840", "--wildcard-log", wildcardLog, "--dump-json", work.path("\(type).json"),
                ]),
            timeout: 270)
        device.process.stop()
        if !read.succeeded { print("  [\(type)] device output (last lines):\n\(Referee.tail(device.process.stdout))") }
        let size = (try? FileManager.default.attributesOfItem(atPath: wildcardLog)[.size] as? Int) ?? 0
        try #require(size > 0, "\(type): the driver wrote no wildcard log")
        let infoVersion = environment["DMV_INFO_VERSION"] ?? "1.5"
        try Referee.run(
            type,
            [
                Referee.python("DMV_VENV", default: "/opt/matter-emu/dmvenv"), Referee.script("dm_check.py"), "--name",
                type, "--info-version", infoVersion, wildcardLog,
            ],
            timeout: 300)
        try twinMatches(type, work: work)
    }

    /// Issue 31's round trip through the SDK: the twin of the SDK's recording of `type` (`device --from-dump`,
    /// a Home Assistant node) commissioned and read by the SDK again; every attribute equal to the recording's,
    /// fabric-bound attributes aside (endpoint 0's fabric and commissioning clusters, fabric-scoped lists).
    func twinMatches(_ type: String, work: WorkDirectory) throws {
        let recording = work.path("\(type).json")
        let replayed = work.path("\(type).twin.json")
        let twin = try DeviceProcess(
            "twin-\(type)", on: lan.host(1), lan: lan, work: work,
            ["--from-dump", recording, "--discriminator", "3840", "--passcode", "20202021"])
        let read = try Referee.run(
            "twin-\(type)",
            lan.inHost(
                lan.host(2),
                [
                    "timeout", "240", Referee.chipPython, Referee.script("chip_driver.py"), "--paa",
                    Referee.paaTrustStore, "--work", "/data/chip-dmv-twin-\(type)", "--passcode", "20202021",
                    "--discriminator", "3840", "--wildcard-log", work.path("\(type).twin.log"), "--dump-json", replayed,
                ]),
            timeout: 270)
        twin.process.stop()
        if !read.succeeded {
            print("  [twin-\(type)] device output (last lines):\n\(Referee.tail(twin.process.stdout))")
        }
        try TwinComparison.judge(type, recording: recording, twin: replayed, by: "the SDK")
    }

    /// Copies the logs of `work` into `directory` (DMV_KEEP).
    private static func keep(_ work: WorkDirectory, in directory: String) {
        let manager = FileManager.default
        try? manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in (try? manager.contentsOfDirectory(atPath: work.root)) ?? [] {
            let target = directory + "/" + name
            try? manager.removeItem(atPath: target)
            try? manager.copyItem(atPath: work.path(name), toPath: target)
        }
    }
}
