import Foundation
import MatterTestSupport
import Testing

/// `matter-emu fleet|device --http`: the JSON API, its event stream, /metrics and the dashboard over
/// real HTTP on 127.0.0.1, checked against the control plane the API goes through.
@Suite struct HTTPAPITests {
    @Test("a PUT is a control-plane set: the value reads back over HTTP and ctl, and the event stream reports it")
    func setReadsBackAndStreams() async throws {
        let fleet = try await HTTPProcess(["fleet", "--count", "2", "--type", "dimmable-light"])
        let stream = try HTTPTestClient(port: fleet.port)
        defer { stream.close() }
        try stream.send(Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(fleet.port)\r\n\r\n".utf8))
        #expect(try await stream.head().status == 200)

        let put = try await fleet.request(
            "PUT", "/api/devices/1/endpoints/1/clusters/OnOff/attributes/OnOff", body: #"{"value":true}"#)
        #expect(put.status == 200)
        #expect(try put.json()["value"] as? Bool == true)
        #expect(try await fleet.value(1, "OnOff", "OnOff") as? Bool == true)
        #expect(try await fleet.value(0, "OnOff", "OnOff") as? Bool == false)
        let ctl = try await fleet.ctl(#"{"op":"get","device":1,"endpoint":1,"cluster":"OnOff","attribute":"OnOff"}"#)
        #expect(ctl["value"] as? Bool == true)

        // The stream carries device --json's fields with the device's index.
        var seen: [String: Any] = [:]
        while seen["attribute"] as? String != "OnOff" {
            let data = try await stream.nextEvent()
            seen = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] ?? [:]
        }
        #expect(seen["device"] as? Int == 1)
        #expect(seen["event"] as? String == "attribute")
        #expect(seen["cluster"] as? String == "OnOff")
        #expect(seen["value"] as? Bool == true)

        // A change made through the control plane reaches the stream as well.
        _ = try await fleet.ctl(
            #"{"op":"set","device":0,"endpoint":1,"cluster":"LevelControl","attribute":"CurrentLevel","value":7}"#)
        seen = [:]
        while seen["attribute"] as? String != "CurrentLevel" {
            seen =
                try JSONSerialization.jsonObject(with: Data(try await stream.nextEvent().utf8)) as? [String: Any] ?? [:]
        }
        #expect(seen["device"] as? Int == 0)
        #expect(seen["value"] as? Int == 7)
    }

    @Test("bad requests get 400/404/405/413/403 with the reason, and change nothing")
    func badRequestsChangeNothing() async throws {
        let fleet = try await HTTPProcess(["fleet", "--count", "2", "--type", "dimmable-light"])
        let onOff = "/api/devices/0/endpoints/1/clusters/OnOff/attributes/OnOff"
        let cases: [(method: String, path: String, headers: [String: String], body: String?, status: Int)] = [
            ("PUT", onOff, [:], #"{"value":tru"#, 400),  // malformed JSON
            ("PUT", onOff, [:], #"[true]"#, 400),  // not an object
            ("PUT", onOff, [:], #"{"value":"yes"}"#, 400),  // wrong type
            ("PUT", onOff, [:], #"{"value":true,"extra":1}"#, 400),  // unknown field
            ("PUT", onOff, [:], #"{}"#, 400),  // no value
            (
                "PUT", "/api/devices/0/endpoints/1/clusters/LevelControl/attributes/CurrentLevel", [:],
                #"{"value":300}"#, 400
            ),  // out of range
            ("PUT", "/api/devices/0/endpoints/1/clusters/Descriptor/attributes/ServerList", [:], #"{"value":[]}"#, 400),
            ("PUT", "/api/devices/2/endpoints/1/clusters/OnOff/attributes/OnOff", [:], #"{"value":true}"#, 404),
            ("PUT", "/api/devices/x/endpoints/1/clusters/OnOff/attributes/OnOff", [:], #"{"value":true}"#, 404),
            ("PUT", "/api/devices/0/endpoints/1/clusters/Nope/attributes/OnOff", [:], #"{"value":true}"#, 404),
            ("PUT", "/api/devices/0/endpoints/1/clusters/OnOff/attributes/Nope", [:], #"{"value":true}"#, 404),
            ("PUT", "/api/devices/0/endpoints/9/clusters/OnOff/attributes/OnOff", [:], #"{"value":true}"#, 404),
            ("POST", onOff, [:], #"{"value":true}"#, 405),
            ("DELETE", "/api/devices/0", [:], nil, 405),
            ("POST", "/api/devices/0/actions/set", [:], #"{"value":true}"#, 404),
            ("POST", "/api/devices/0/actions/offline", [:], #"{"op":"reboot"}"#, 400),
            ("POST", "/api/devices/0/actions/offline", [:], #"{"device":1}"#, 400),
            ("GET", "/api/nothing", [:], nil, 404),
            ("GET", "/api/devices?limit=0", [:], nil, 400),
            ("GET", "/api/qr.svg?payload=%3Cscript%3E", [:], nil, 400),
            ("PUT", onOff, [:], #"{"value":""# + String(repeating: "x", count: 70_000) + #""}"#, 413),
            ("PUT", onOff, ["Origin": "http://evil.example"], #"{"value":true}"#, 403),
            ("POST", "/api/devices/0/actions/offline", ["Origin": "http://evil.example"], "{}", 403),
            ("PUT", onOff, ["Host": "evil.example"], #"{"value":true}"#, 403),
        ]
        for item in cases {
            let answer = try await fleet.request(item.method, item.path, headers: item.headers, body: item.body)
            #expect(
                answer.status == item.status,
                "\(item.method) \(item.path) \(item.body?.prefix(60) ?? ""): \(answer.body)")
            #expect((try? answer.json())?["ok"] as? Bool == false, "\(answer.body)")
        }
        for device in 0...1 {
            #expect(try await fleet.value(device, "OnOff", "OnOff") as? Bool == false)
            #expect(try await fleet.value(device, "LevelControl", "CurrentLevel") as? Int == 254)
            let summary = try await fleet.request("GET", "/api/devices/\(device)").json()
            #expect(summary["online"] as? Bool == true)
        }
    }

    @Test("control-plane states map to statuses: a second open-window is 409; actions act")
    func actionsAndConflicts() async throws {
        let device = try await HTTPProcess(["device", "--type", "door-lock"])
        // An uncommissioned device has its basic window open: open-window is BUSY.
        let busy = try await device.request("POST", "/api/devices/0/actions/open-window", body: "{}")
        #expect(busy.status == 409, "\(busy.body)")
        #expect(try await device.request("GET", "/api/devices/0/qr.svg").headers["content-type"] == "image/svg+xml")
        #expect(try await device.request("POST", "/api/devices/0/actions/close-window").status == 200)
        let again = try await device.request("POST", "/api/devices/0/actions/close-window")
        #expect(again.status == 409, "\(again.body)")
        #expect(try await device.request("GET", "/api/devices/0/qr.svg").status == 404)
        let opened = try await device.request(
            "POST", "/api/devices/0/actions/open-window", body: #"{"mode":"enhanced","discriminator":1234}"#)
        #expect(opened.status == 200, "\(opened.body)")
        let qr = try #require(try opened.json()["qrCode"] as? String)
        let svg = try await device.request(
            "GET", "/api/qr.svg?payload=" + (qr.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        #expect(svg.status == 200)
        #expect(svg.body.hasPrefix("<svg"))

        #expect(try await device.request("POST", "/api/devices/0/actions/jam").status == 200)
        #expect(try await device.value(0, "DoorLock", "LockState") as? Int == 0)
        #expect(try await device.request("POST", "/api/devices/0/actions/offline").status == 200)
        #expect(try await device.request("GET", "/api/devices/0").json()["online"] as? Bool == false)
        let list = try await device.request("GET", "/api/devices?online=false").json()
        #expect(list["total"] as? Int == 1)
        let event = try await device.request(
            "POST", "/api/devices/0/endpoints/1/clusters/DoorLock/events/DoorLockAlarm",
            body: #"{"fields":{"alarmCode":4}}"#)
        #expect(event.status == 200, "\(event.body)")
        #expect(try event.json()["eventNumber"] is Int)
    }

    @Test(
        "commands: POST .../commands/{command} invokes through the control plane; the device's controls come from its clusters; its log keeps events"
    )
    func commandsControlsAndLog() async throws {
        let fleet = try await HTTPProcess(["fleet", "--type", "window-covering", "--count", "1"])
        let summary = try await fleet.request("GET", "/api/devices/0").json()
        let controls = try #require(summary["controls"] as? [[String: Any]])
        #expect(controls.map { $0["name"] as? String } == ["lift", "open", "close", "stop"])
        let lift = try #require(controls.first)
        #expect(lift["command"] as? String == "GoToLiftPercentage")
        #expect(lift["field"] as? String == "liftPercent100thsValue")
        let shown = try #require(summary["attributes"] as? [String: [String: Any]])
        #expect(shown["WindowCovering"]?["CurrentPositionLiftPercent100ths"] as? Int == 0)

        let path = "/api/devices/0/endpoints/1/clusters/WindowCovering/commands/"
        let go = try await fleet.request(
            "POST", path + "GoToLiftPercentage", body: #"{"fields":{"liftPercent100thsValue":500}}"#)
        #expect(go.status == 200, "\(go.body)")
        #expect(try await fleet.value(0, "WindowCovering", "TargetPositionLiftPercent100ths") as? Int == 500)
        #expect(
            try await eventually(within: .seconds(20)) {
                try await fleet.value(0, "WindowCovering", "CurrentPositionLiftPercent100ths") as? Int == 500
            })
        // Wrong fields, out of range, unknown command, a cluster the endpoint lacks: refused, nothing moves.
        let bad: [(String, String, Int)] = [
            ("GoToLiftPercentage", #"{"fields":{"lift":1}}"#, 400),
            ("GoToLiftPercentage", #"{"fields":{"liftPercent100thsValue":"x"}}"#, 400),
            ("GoToLiftPercentage", #"{"fields":{"liftPercent100thsValue":10001}}"#, 400),
            ("GoToLiftPercentage", #"{"other":1}"#, 400),
            ("Fly", "{}", 404),
        ]
        for (command, body, status) in bad {
            let answer = try await fleet.request("POST", path + command, body: body)
            #expect(answer.status == status, "\(command) \(body): \(answer.body)")
        }
        let onOff = try await fleet.request("POST", "/api/devices/0/endpoints/1/clusters/OnOff/commands/On")
        #expect(onOff.status == 404, "\(onOff.body)")
        #expect(try await fleet.request("GET", path + "StopMotion").status == 405)
        #expect(try await fleet.value(0, "WindowCovering", "TargetPositionLiftPercent100ths") as? Int == 500)

        // The device's log: a window closed through the API is an entry, with a time.
        #expect(try await fleet.request("POST", "/api/devices/0/actions/close-window").status == 200)
        let log = try await fleet.request("GET", "/api/devices/0/log?limit=5").json()
        let entries = try #require(log["events"] as? [[String: Any]])
        #expect(entries.contains { $0["event"] as? String == "commissioning-window" && $0["open"] as? Bool == false })
        #expect(entries.allSatisfy { $0["time"] is Int })
        #expect(!entries.contains { $0["event"] as? String == "attribute" })
        #expect(try await fleet.request("GET", "/api/devices/0/log?limit=0").status == 400)
        // Scripts: started and listed over HTTP; a csv script (a file of the host) only from the command line or ctl.
        let script = try await fleet.request(
            "POST", "/api/devices/0/actions/script",
            body:
                #"{"cluster":"WindowCovering","attribute":"CurrentPositionLiftPercent100ths","script":"steps(0:1000,1h:2000)"}"#
        )
        #expect(script.status == 200, "\(script.body)")
        let listed =
            try await fleet.request("POST", "/api/devices/0/actions/scripts").json()["scripts"] as? [[String: Any]]
        #expect(listed?.first?["attribute"] as? String == "CurrentPositionLiftPercent100ths")
        let file = try await fleet.request(
            "POST", "/api/devices/0/actions/script",
            body:
                #"{"cluster":"WindowCovering","attribute":"CurrentPositionLiftPercent100ths","script":"CSV(/etc/passwd)"}"#
        )
        #expect(file.status == 400, "\(file.body)")
        #expect(file.body.contains("not over HTTP"), "\(file.body)")
        let types = try await fleet.request("GET", "/api/types").json()["types"] as? [[String: Any]]
        #expect(types?.map { $0["type"] as? String } == ["window-covering"])
    }

    @Test("search, filters and paging over a fleet; labels come back as text, escaped in JSON")
    func listing() async throws {
        let fleet = try await HTTPProcess(["fleet", "--count", "5", "--type", "on-off-light"])
        let label = #"<img src=x onerror="alert(1)">"#
        let set = try await fleet.request(
            "PUT", "/api/devices/3/endpoints/0/clusters/BasicInformation/attributes/NodeLabel",
            body: ControlLine.json(["value": label]))
        #expect(set.status == 200, "\(set.body)")
        let page = try await fleet.request("GET", "/api/devices?offset=1&limit=2").json()
        #expect(page["total"] as? Int == 5)
        #expect((page["devices"] as? [[String: Any]])?.map { $0["device"] as? Int } == [1, 2])
        let found = try await fleet.request("GET", "/api/devices?q=onerror").json()
        let devices = try #require(found["devices"] as? [[String: Any]])
        #expect(devices.map { $0["device"] as? Int } == [3])
        #expect(devices.first?["label"] as? String == label)
        #expect(try await fleet.request("GET", "/api/devices?type=door-lock").json()["total"] as? Int == 0)

        let page0 = try await fleet.request("GET", "/")
        #expect(page0.status == 200)
        #expect(page0.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(!page0.body.contains(label))
    }

    @Test("/metrics: Prometheus text with per-device and total series and the process's memory and CPU")
    func metrics() async throws {
        let fleet = try await HTTPProcess(["fleet", "--count", "3", "--type", "on-off-light"])
        #expect(try await fleet.request("POST", "/api/devices/2/actions/offline").status == 200)
        let metrics = try await fleet.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        let lines = Set(metrics.body.split(separator: "\n").map(String.init))
        #expect(lines.contains("matter_devices 3"))
        #expect(lines.contains("matter_devices_online 2"))
        #expect(lines.contains(#"matter_device_online{device="2",type="on-off-light"} 0"#))
        #expect(lines.contains(#"matter_device_commissionable{device="0",type="on-off-light"} 1"#))
        #expect(lines.contains("# TYPE matter_datagrams_received_total counter"))
        #expect(lines.contains(#"matter_device_subscriptions{device="1",type="on-off-light"} 0"#))
        #expect(lines.contains("matter_subscriptions 0"))
        #expect(lines.contains { $0.hasPrefix("process_resident_memory_bytes ") })
        #expect(lines.contains { $0.hasPrefix("process_cpu_seconds_total ") })
        // Every sample line is NAME{labels} VALUE or NAME VALUE with a number.
        for line in lines where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").last.flatMap { Double($0) } != nil, "\(line)")
        }
    }

    @Test("--http-token: requests without it or with a wrong one are 401 and change nothing")
    func token() async throws {
        let token = "0123456789abcdef-test"
        let device = try await HTTPProcess(
            ["device", "--type", "on-off-light"], http: ["--http", "127.0.0.1:0", "--http-token", token])
        let onOff = "/api/devices/0/endpoints/1/clusters/OnOff/attributes/OnOff"
        for headers in [[:], ["Authorization": "Bearer wrong-token-0000000"], ["Authorization": token]] {
            let answer = try await device.request("PUT", onOff, headers: headers, body: #"{"value":true}"#)
            #expect(answer.status == 401)
        }
        #expect(try await device.request("GET", "/metrics").status == 401)
        let bearer = ["Authorization": "Bearer \(token)"]
        #expect(try await device.request("GET", onOff, headers: bearer).json()["value"] as? Bool == false)
        #expect(try await device.request("PUT", onOff, headers: bearer, body: #"{"value":true}"#).status == 200)
        #expect(try await device.request("GET", "/?token=\(token)").status == 200)
    }

    @Test("bad --http options exit 2 before anything starts")
    func usage() async throws {
        for arguments in [
            ["--http", "nowhere:80"], ["--http", "127.0.0.1:70000"], ["--http-token", "0123456789abcdef"],
            ["--http", "127.0.0.1:0", "--http-token", "short"],
        ] {
            let result = try await ProcessRunner.runMatterEmu(
                ["device", "--secured-device-port", "0", "--no-advertise", "--state-dir", "/nonexistent"] + arguments)
            #expect(result.exitCode == 2, "\(arguments): \(result.stderr)")
        }
    }
}

/// A JSON body for a request.
enum ControlLine {
    static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }
}
