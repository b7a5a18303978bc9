import Foundation
import MatterTestSupport
import Testing

/// The dashboard in headless Chromium (scripts/test-browser.sh: Debian's chromium and chromium-driver,
/// Selenium in a venv). `scripts/browser/dashboard_driver.py` only performs page actions and reports
/// what the page shows; the checks are here. Enabled when the wrapper exports MATTER_BROWSER_PYTHON.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MATTER_BROWSER_PYTHON"] != nil))
struct BrowserDashboardTests {
    /// The page driver: one JSON command in, one JSON answer out.
    final class PageDriver {
        let process: RunningProcess
        private var answered = 0

        init() throws {
            let python = ProcessInfo.processInfo.environment["MATTER_BROWSER_PYTHON"] ?? "python3"
            let script = TestPaths.repositoryRoot.appendingPathComponent("scripts/browser/dashboard_driver.py").path
            process = try RunningProcess([python, script], name: "dashboard-driver", input: .pipe)
        }

        /// Sends `command` and waits (a 90 s hang guard) for its answer.
        func run(_ command: [String: Any]) async throws -> [String: Any] {
            let data = try JSONSerialization.data(withJSONObject: command)
            process.send(String(decoding: data, as: UTF8.self))
            let index = answered
            guard await eventually(within: .seconds(90), { process.jsonLines.count > index }) else {
                throw TestSupportError.timedOut("the page driver did not answer \(command): \(process.stderr)")
            }
            answered += 1
            return process.jsonLines[index]
        }

        /// The rows the page shows, by device index.
        func rows() async throws -> [Int: [String: Any]] {
            let rows = try await run(["op": "rows"])["rows"] as? [[String: Any]] ?? []
            return Dictionary(rows.map { ($0["device"] as? Int ?? -1, $0) }, uniquingKeysWith: { a, _ in a })
        }

        deinit {
            process.send(#"{"op":"quit"}"#)
            if process.exit(within: .seconds(10)) == nil { process.stop() }
        }
    }

    /// Where screenshots go: MATTER_BROWSER_SCREENSHOTS, or a temporary directory kept after the run.
    static func screenshotDirectory() throws -> String {
        if let directory = ProcessInfo.processInfo.environment["MATTER_BROWSER_SCREENSHOTS"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return directory
        }
        let directory = NSTemporaryDirectory() + "matter-emu-browser-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(
        "the fleet's page: every device, controls that change the device (a subscribed controller hears it), API, ctl and controller changes shown live, the event log, a window's codes"
    )
    func dashboard() async throws {
        let shots = try Self.screenshotDirectory()
        let config = try TemporaryDirectory(prefix: "matter-emu-browser")
        let configPath = config.path + "/fleet.json"
        let groups = [
            ("dimmable-light", 2), ("door-lock", 1), ("on-off-light", 1), ("temperature-sensor", 1),
            ("generic-switch", 1),
        ]
        try JSONSerialization.data(withJSONObject: ["groups": groups.map { ["type": $0.0, "count": $0.1] }])
            .write(to: URL(fileURLWithPath: configPath))
        let fleet = try await HTTPProcess(["fleet", "--config", configPath])
        let hostile = "<b onclick='x()'>&amp;lamp</b>"  // 29 bytes: a NodeLabel takes 32
        let label = try await fleet.request(
            "PUT", "/api/devices/2/endpoints/0/clusters/BasicInformation/attributes/NodeLabel",
            body: ControlLine.json(["value": hostile]))
        #expect(label.status == 200)
        let printed = try #require(fleet.process.jsonLines.first?["devices"] as? [[String: Any]])

        let page = try PageDriver()
        let opened = try await page.run(["op": "open", "url": fleet.url])
        #expect(opened["ok"] as? Bool == true, "\(opened) \(page.process.stderr)")
        _ = try await page.run(["op": "screenshot", "path": shots + "/1-opened.png"])

        // Every device, with its type, state and codes (uncommissioned: the basic window is open).
        let rows = try await page.rows()
        #expect(rows.keys.sorted() == [0, 1, 2, 3, 4, 5])
        for (index, row) in rows {
            #expect(row["type"] as? String == printed[index]["type"] as? String)
            #expect(row["state"] as? String == "online")
            #expect(row["manualCode"] as? String == printed[index]["manualCode"] as? String)
            #expect(row["qrPayload"] as? String == printed[index]["qrCode"] as? String)
            #expect(row["qrShown"] as? Bool == true, "\(row)")
        }
        #expect(rows[2]?["label"] as? String == hostile)  // shown as text, never run

        // A click on the page changes the device (read back through the control plane).
        let clicked1 = try await page.run(["op": "click", "device": 1, "control": "toggle"])
        #expect(clicked1["ok"] as? Bool == true, "\(clicked1)")
        let toggled = try await page.run(["op": "wait", "device": 1, "attribute": "OnOff.OnOff", "text": "true"])
        #expect(toggled["ok"] as? Bool == true, "\(toggled)")
        let state = try await fleet.ctl(#"{"op":"get","device":1,"endpoint":1,"cluster":"OnOff","attribute":"OnOff"}"#)
        #expect(state["value"] as? Bool == true)
        #expect(try await fleet.value(0, "OnOff", "OnOff") as? Bool == false)

        // A change through the API, and one through the control plane (`matter-emu ctl`), show up live.
        let put = try await fleet.request(
            "PUT", "/api/devices/0/endpoints/1/clusters/LevelControl/attributes/CurrentLevel", body: #"{"value":42}"#)
        #expect(put.status == 200)
        let level = try await page.run([
            "op": "wait", "device": 0, "attribute": "LevelControl.CurrentLevel", "text": "42",
        ])
        #expect(level["ok"] as? Bool == true, "\(level)")
        _ = try await fleet.ctl(
            #"{"op":"set","device":3,"endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}"#)
        let fromCtl = try await page.run(["op": "wait", "device": 3, "attribute": "OnOff.OnOff", "text": "true"])
        #expect(fromCtl["ok"] as? Bool == true, "\(fromCtl)")
        _ = try await fleet.ctl(
            #"{"op":"set","device":2,"endpoint":1,"cluster":"DoorLock","attribute":"LockState","value":2}"#)
        let unlocked = try await page.run(["op": "wait", "device": 2, "attribute": "DoorLock.LockState", "text": "2"])
        #expect(unlocked["ok"] as? Bool == true, "\(unlocked)")

        // A sensor's value typed on the page reaches the device; a press on the page plays the switch's
        // events, which the row's event log shows.
        _ = try await page.run(["op": "input", "device": 4, "control": "measured-value", "value": 2150])
        let measured = try await page.run([
            "op": "wait", "device": 4, "attribute": "TemperatureMeasurement.MeasuredValue", "text": "2150",
        ])
        #expect(measured["ok"] as? Bool == true, "\(measured)")
        #expect(try await fleet.value(4, "TemperatureMeasurement", "MeasuredValue") as? Int == 2150)
        let clicked2 = try await page.run(["op": "click", "device": 5, "control": "press"])
        #expect(clicked2["ok"] as? Bool == true, "\(clicked2)")
        let pressed = try await page.run(["op": "waitLog", "device": 5, "text": "Switch.ShortRelease"])
        #expect(pressed["ok"] as? Bool == true, "\(pressed)")
        _ = try await page.run(["op": "screenshot", "path": shots + "/2-changed.png"])

        // Our controller commissions light 0 and subscribes to OnOff: a click on the page reaches it as
        // a report; a command it sends shows on the page.
        let controller = config.path + "/controller"
        let passcode = try #require(printed[0]["passcode"] as? Int)
        let port = try #require(printed[0]["port"] as? Int)
        let paired = try await ProcessRunner.runMatterEmu([
            "pairing", "already-discovered", "1", String(passcode), "127.0.0.1", String(port), "--state-dir",
            controller,
        ])
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        let subscription = try RunningProcess(
            [ProcessRunner.matterEmu.path, "onoff", "subscribe", "on-off", "0", "5", "1", "--json", "--count", "2"]
                + ["--state-dir", controller])
        defer { subscription.stop() }
        #expect(await eventually(within: .seconds(30)) { subscription.jsonLines.count >= 1 }, "\(subscription.stderr)")
        let clicked3 = try await page.run(["op": "click", "device": 0, "control": "toggle"])
        #expect(clicked3["ok"] as? Bool == true, "\(clicked3)")
        #expect(
            await eventually(within: .seconds(30)) {
                subscription.jsonLines.contains { $0["value"] as? Bool == true }
            }, "\(subscription.jsonLines) \(subscription.stderr)")
        let on = try await page.run(["op": "wait", "device": 0, "attribute": "OnOff.OnOff", "text": "true"])
        #expect(on["ok"] as? Bool == true, "\(on)")
        let off = try await ProcessRunner.runMatterEmu(["onoff", "off", "1", "--state-dir", controller])
        #expect(off.exitCode == 0, "\(off.stderr)")
        let fromController = try await page.run([
            "op": "wait", "device": 0, "attribute": "OnOff.OnOff", "text": "false",
        ])
        #expect(fromController["ok"] as? Bool == true, "\(fromController)")
        let commissioned = try await page.run(["op": "waitLog", "device": 0, "text": "case-established"])
        #expect(commissioned["ok"] as? Bool == true, "\(commissioned)")

        // An enhanced window opened from the page: its codes and QR code are shown and parse.
        #expect(try await fleet.request("POST", "/api/devices/3/actions/close-window").status == 200)
        let clicked4 = try await page.run(["op": "click", "device": 3, "control": "open-window"])
        #expect(clicked4["ok"] as? Bool == true, "\(clicked4)")
        let window = try await page.run(["op": "waitManualCode", "device": 3])
        #expect(window["ok"] as? Bool == true, "\(window)")
        let shown = window["row"] as? [String: Any] ?? [:]
        let qr = try #require(shown["qrPayload"] as? String)
        #expect(qr != printed[3]["qrCode"] as? String)  // the window's own codes, not the device's
        let parsed = try await ProcessRunner.runMatterEmu(["payload", "parse", qr, "--json"])
        #expect(parsed.exitCode == 0, "\(parsed.stderr)")
        _ = try await page.run(["op": "screenshot", "path": shots + "/3-window.png"])

        // Search narrows the list.
        _ = try await page.run(["op": "search", "text": "door"])
        #expect(try await eventually(within: .seconds(20)) { try await page.rows().keys.sorted() == [2] })
        _ = try await page.run(["op": "screenshot", "path": shots + "/4-search.png"])
        #expect(FileManager.default.fileExists(atPath: shots + "/4-search.png"))
    }
}
