import Foundation
import MatterTestSupport
import Testing

/// Home Assistant's Matter Server (PyPI python-matter-server 7.0.1, the server Home Assistant's Matter
/// integration talks to, venv `HA_VENV`) against one `matter-emu device` of every type on the virtual LAN of
/// scripts/lan.sh (root; run by scripts/test-ha.sh, prefix ha). The server runs in host 2 through
/// scripts/interop/ha_server.py (its PAA, vendor and OTA downloads off; it trusts only the test PAA); the
/// driver, scripts/interop/ha_driver.py, runs in host 1, starts the devices itself and talks to the server's
/// WebSocket over the LAN as Home Assistant does (commissioning and interview, node data, commands seen
/// through the subscription, the commissioning window, restarts, two identities, remove_node). One test:
/// the driver's checks build on one another across devices; each of its `[FAIL]` lines is an issue of its own.
@Suite(.serialized, .enabled(if: LAN.isUp(for: "ha"), "needs the LAN of scripts/test-ha.sh"))
struct HomeAssistantTests {
    static let suiteName = "ha"
    let lan: LAN

    init() throws { lan = try LAN.required(for: Self.suiteName) }

    @Test("Home Assistant's Matter Server commissions, interviews and drives every device type")
    func matterServer() throws {
        let work = try WorkDirectory(prefix: "ha")
        defer { work.remove() }
        let python = Referee.python("HA_VENV", default: "/opt/matter-emu/havenv")
        // The server's PAA directory: the test PAA, and a `.version` file (without one the server's PAA
        // download would first delete every certificate in the directory; ha_server.py turns it off).
        let manager = FileManager.default
        let paa = work.path("paa")
        try manager.createDirectory(atPath: paa, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: work.path("server"), withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: Referee.paaTrustStore) where name.hasSuffix(".der") {
            try manager.copyItem(atPath: Referee.paaTrustStore + "/" + name, toPath: paa + "/" + name)
        }
        try "1\n".write(toFile: paa + "/.version", atomically: true, encoding: .utf8)
        let server = try lan.start(
            lan.host(2),
            [
                python, Referee.script("ha_server.py"), "--storage-path", work.path("server"), "--paa-root-cert-dir",
                paa, "--listen-address", lan.ipv4(2), "--port", "5580", "--primary-interface", "lan0", "--log-level",
                "info", "--log-file", work.path("server.log"),
            ],
            name: "server", in: work)
        defer { server.stop() }
        let report = try Referee.run(
            "ha",
            lan.inHost(
                lan.host(1),
                [
                    "timeout", "900", python, Referee.script("ha_driver.py"), "--url", "ws://\(lan.ipv4(2)):5580/ws",
                    "--emu", BuiltBinaries.matterEmu, "--work", work.path("devices"),
                ]),
            timeout: 930)
        // Twins (issue 31): the server's stored node of a device, served again and interviewed by the server.
        for name in ["extended-color-light", "door-lock"] {
            let recording = work.path("devices/\(name).recorded.json")
            let twin = work.path("devices/\(name).twin.json")
            guard manager.fileExists(atPath: recording), manager.fileExists(atPath: twin) else {
                Issue.record("\(name): the driver wrote no twin files (its [FAIL] lines say why)")
                continue
            }
            try TwinComparison.judge(name, recording: recording, twin: twin, by: "Home Assistant's Matter Server")
        }
        if !report.succeeded {
            let log = (try? String(contentsOfFile: work.path("server.log"), encoding: .utf8)) ?? ""
            print(
                "  [ha] the server's output and log (last lines):\n\(Referee.tail(server.stderr))\n\(Referee.tail(log, 30))"
            )
        }
    }
}
