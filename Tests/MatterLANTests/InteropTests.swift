import Foundation
import MatterTestSupport
import Testing

/// The connectedhomeip SDK's own Python controller (PyPI home-assistant-chip-core 2025.7.0, venv
/// `CHIP_VENV`) commissions and drives `matter-emu device` on the virtual LAN of scripts/lan.sh (root;
/// run by scripts/interop-chip.sh): devices in host 1, the controller (scripts/interop/chip_driver.py,
/// chip_events.py) in host 2, attestation verified against the test PAA. One test per case; each of the
/// driver's `[FAIL]` lines is recorded as its own issue, by name. The cases share host 1's ports and
/// discriminators, so they run one after another.
@Suite(.serialized, .enabled(if: LAN.isUp(for: "interop"), "needs the LAN of scripts/interop-chip.sh"))
struct InteropTests {
    static let suiteName = "interop"
    let lan: LAN

    init() throws { lan = try LAN.required(for: Self.suiteName) }

    /// `--type TYPE` with the discriminator and passcode every case's driver is given.
    private static func device(_ type: String) -> [String] {
        ["--type", type, "--discriminator", "3840", "--passcode", "20202021"]
    }

    /// chip_driver.py ARGUMENTS in host 2 (`timeout 240` inside, so the controller never outlives the test).
    @discardableResult
    private func chipDriver(
        _ tag: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RefereeReport {
        try Referee.run(
            tag,
            lan.inHost(
                lan.host(2),
                [
                    "timeout", "240", Referee.chipPython, Referee.script("chip_driver.py"), "--paa",
                    Referee.paaTrustStore,
                ]
                    + arguments),
            timeout: 270, sourceLocation: sourceLocation)
    }

    /// Prints the end of a device's output when its driver run failed.
    private func explain(_ report: RefereeReport, _ process: RunningProcess) {
        if !report.succeeded {
            print("  [\(process.name)] device output (last lines):\n\(Referee.tail(process.stdout, 30))")
        }
    }

    @Test("dimmable light: QR code, control, a second fabric; then a restart and a reconnect")
    func dimmableLight() throws {
        let work = try WorkDirectory(prefix: "interop-light")
        defer { work.remove() }
        let light = try DeviceProcess("light", on: lan.host(1), lan: lan, work: work, Self.device("dimmable-light"))
        let first = try chipDriver(
            "dimmable-light qr", ["--work", "/data/chip-light", "--qr", light.qrCode, "--second-fabric"])
        explain(first, light.process)
        light.process.stop()
        let restarted = try DeviceProcess(
            "light-restart", on: lan.host(1), lan: lan, work: work, Self.device("dimmable-light"), state: "light",
            factoryReset: false)
        defer { restarted.process.stop() }
        let second = try chipDriver("dimmable-light restart", ["--work", "/data/chip-light", "--reconnect"])
        explain(second, restarted.process)
    }

    @Test("on-off plug: manual code")
    func plugByManualCode() throws {
        let work = try WorkDirectory(prefix: "interop-plug")
        defer { work.remove() }
        let plug = try DeviceProcess("plug", on: lan.host(1), lan: lan, work: work, Self.device("on-off-plug"))
        defer { plug.process.stop() }
        let report = try chipDriver(
            "on-off-plug manual", ["--work", "/data/chip-plug", "--manual", plug.manualCode, "--no-level"])
        explain(report, plug.process)
    }

    @Test("colour-temperature light: passcode + discriminator")
    func colorTemperatureLightByPasscode() throws {
        let work = try WorkDirectory(prefix: "interop-ct")
        defer { work.remove() }
        let light = try DeviceProcess(
            "ct", on: lan.host(1), lan: lan, work: work, Self.device("color-temperature-light"))
        defer { light.process.stop() }
        let report = try chipDriver(
            "color-temperature-light pin",
            ["--work", "/data/chip-ct", "--passcode", "20202021", "--discriminator", "3840"])
        explain(report, light.process)
    }

    @Test("fleet of 20: device 7 commissioned by QR code; the other 19 stay commissionable")
    func fleetDevice() throws {
        let work = try WorkDirectory(prefix: "interop-fleet")
        defer { work.remove() }
        let fleet = try lan.start(
            lan.host(1),
            [
                BuiltBinaries.matterEmu, "fleet", "--count", "20", "--state-dir", work.path("fleet"), "--factory-reset",
                "--base-discriminator", "3000", "--json",
            ],
            name: "fleet", in: work)
        defer { fleet.stop() }
        let listing = fleet.jsonLine(within: .seconds(60)) { $0["devices"] != nil }
        let rows = try #require(
            listing?["devices"] as? [[String: Any]], "the fleet did not start: \(fleet.stderr)")
        // The QR code: its long discriminator is unique in the fleet (20 devices share a few short ones).
        let qrCode = try #require(rows.first { $0["index"] as? Int == 7 }?["qrCode"] as? String, "\(rows)")
        let report = try chipDriver(
            "fleet device 7", ["--work", "/data/chip-fleet", "--qr", qrCode, "--commission-only"])
        explain(report, fleet)
        // Browsed until the commissioned device's record is gone (the hang guard only bounds the wait).
        var counts: [Int] = []
        let nineteen = try eventuallyBlocking(within: .seconds(30), every: .seconds(1)) {
            let result = try lan.run(
                lan.host(2),
                [
                    BuiltBinaries.matterEmu, "discover", "commissionable", "--commissioning-mode", "--timeout", "4",
                    "--json",
                ],
                timeout: 30)
            counts.append(((try? result.json())?["nodes"] as? [Any])?.count ?? 0)
            return counts.last == 19
        }
        #expect(nineteen, "devices commissionable after one was commissioned, per browse: \(counts) (expected 19)")
    }

    @Test("control plane: subscriptions to a light and a lock moved by matter-emu ctl (OnOff, a jam, a reboot)")
    func controlPlane() throws {
        let work = try WorkDirectory(prefix: "interop-control")
        defer { work.remove() }
        let light = try DeviceProcess(
            "cp-light", on: lan.host(1), lan: lan, work: work,
            [
                "--type", "on-off-light", "--secured-device-port", "5540", "--discriminator", "3840", "--passcode",
                "20202021", "--control", work.path("light.sock"),
            ])
        defer { light.process.stop() }
        let lock = try DeviceProcess(
            "cp-lock", on: lan.host(1), lan: lan, work: work,
            [
                "--type", "door-lock", "--secured-device-port", "5541", "--discriminator", "3841", "--passcode",
                "20202021", "--control", work.path("lock.sock"),
            ])
        defer { lock.process.stop() }
        let report = try Referee.run(
            "control plane",
            lan.inHost(
                lan.host(2),
                [
                    "timeout", "300", Referee.chipPython, Referee.script("chip_events.py"), "--paa",
                    Referee.paaTrustStore, "--emu", BuiltBinaries.matterEmu, "--light-control", work.path("light.sock"),
                    "--lock-control", work.path("lock.sock"), "--work", "/data/chip-events",
                ]),
            timeout: 330)
        explain(report, light.process)
        explain(report, lock.process)
    }
}
