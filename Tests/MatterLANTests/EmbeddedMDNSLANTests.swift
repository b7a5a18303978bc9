import Foundation
import MatterTestSupport
import Testing

/// The embedded mDNS responder and querier on the virtual LAN (scripts/lan.sh, root; run by
/// scripts/test-mdns.sh, prefix md by default): a device with `--mdns embedded` in host 1, whose avahi-daemon is
/// stopped, is found by avahi-browse and by `matter-emu discover` through Avahi in host 2, by the embedded
/// querier in host 3 beside that host's own avahi-daemon (port 5353 shared), and is commissioned from host 3
/// with `--mdns embedded` (commissionable and operational records both through the embedded responder); once
/// the device stops, its goodbyes clear it from Avahi's cache in host 2. And a light switch with the embedded
/// querier in host 2 finds a light published by host 1's avahi-daemon and commands it through its Binding; in a
/// fleet with the embedded responder, a switch finds and commands the light beside it in the same process.
@Suite(.serialized, .enabled(if: LAN.isUp(for: "mdns"), "needs the LAN of scripts/test-mdns.sh"))
struct EmbeddedMDNSLANTests {
    let lan: LAN

    init() throws { lan = try LAN.required(for: "mdns") }

    /// avahi-browse's resolved lines (`=;lan0;IPv4;NAME;_matterc._udp;local;HOST;ADDRESS;PORT;TXT`) in `host`.
    func avahiResolved(in host: String) throws -> [[String]] {
        let result = try lan.run(host, ["avahi-browse", "-rpt", "_matterc._udp"], timeout: 30)
        return result.stdout.split(separator: "\n").map {
            $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        }
        .filter { $0.first == "=" && $0.count >= 10 }
    }

    /// Through the controller's CLI `cli`: node 2 (a light switch) bound to node 1's (a light's) On/Off on
    /// endpoint 1, and node 1's ACL granting node 2 Operate besides the controller's Administer.
    func bindSwitchToLight(_ cli: ([String]) throws -> ProcessResult) throws {
        let bound = try cli(["binding", "write", "binding", #"[{"node":1,"endpoint":1,"cluster":6}]"#, "2", "1"])
        #expect(bound.exitCode == 0, "\(bound.stderr)")
        let acl =
            #"[{"privilege":5,"authMode":2,"subjects":[112233],"targets":null},"#
            + #"{"privilege":3,"authMode":2,"subjects":[2],"targets":null}]"#
        let granted = try cli(["accesscontrol", "write", "acl", acl, "1", "0"])
        #expect(granted.exitCode == 0, "\(granted.stderr)")
    }

    /// Retries `body` every half second for up to `seconds` until it returns true.
    func eventually(_ seconds: Double, _ body: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try body() { return true }
            Thread.sleep(forTimeInterval: 0.5)
        } while Date() < deadline
        return false
    }

    @Test(
        "matter-emu doctor: Avahi and its port sharer found beside the daemon; without one, auto falls back; multicast comes back; the LAN's answers heard"
    )
    func doctor() throws {
        let work = try WorkDirectory(prefix: "mdns-doctor")
        let (h1, h2) = (lan.host(1), lan.host(2))
        // A device in host 2 answers the doctor's query for Matter services.
        let device = try DeviceProcess(
            "light", on: h2, lan: lan, work: work,
            ["--mdns", "embedded", "--interface", "lan0", "--discriminator", "2346", "--secured-device-port", "5541"])
        defer { device.process.stop() }
        func doctor(_ host: String) throws -> (exitCode: Int32, json: [String: Any]) {
            let result = try lan.run(
                host, [BuiltBinaries.matterEmu, "doctor", "--interface", "lan0", "--listen", "3", "--json"],
                timeout: 60)
            return (result.exitCode, try result.json())
        }
        func check(_ json: [String: Any], _ name: String) -> [String: Any]? {
            (json["checks"] as? [[String: Any]])?.first { $0["name"] as? String == name }
        }
        let withAvahi = try doctor(h1)
        #expect(withAvahi.exitCode == 0, "\(withAvahi.json)")
        #expect(withAvahi.json["autoBackend"] as? String == "avahi")
        #expect(withAvahi.json["interfaces"] as? [String] == ["lan0"])
        #expect(
            (withAvahi.json["otherResponders"] as? [String])?.contains { $0.hasPrefix("avahi-daemon (pid ") } == true,
            "\(withAvahi.json)")
        #expect(check(withAvahi.json, "multicast")?["status"] as? String == "ok", "\(withAvahi.json)")
        #expect(check(withAvahi.json, "port")?["status"] as? String == "ok", "\(withAvahi.json)")
        #expect((withAvahi.json["answeringHosts"] as? [String])?.contains(lan.ipv4(2)) == true, "\(withAvahi.json)")

        try lan.control(["avahi-stop", h1])
        defer { _ = try? lan.control(["avahi-start", h1]) }
        let without = try doctor(h1)
        #expect(without.exitCode == 0, "\(without.json)")
        #expect(without.json["autoBackend"] as? String == "embedded")
        #expect(check(without.json, "avahi")?["status"] as? String == "warning")
        #expect((check(without.json, "avahi")?["advice"] as? String)?.contains("--mdns") == true)
        #expect((without.json["otherResponders"] as? [String])?.isEmpty == true, "\(without.json)")
        #expect(check(without.json, "multicast")?["status"] as? String == "ok", "\(without.json)")
    }

    @Test("embedded responder without avahi-daemon: found by Avahi and by the embedded querier, commissioned")
    func embeddedDeviceInteroperates() throws {
        let work = try WorkDirectory(prefix: "mdns-lan")
        let (h1, h2, h3) = (lan.host(1), lan.host(2), lan.host(3))
        try lan.control(["avahi-stop", h1])
        defer { _ = try? lan.control(["avahi-start", h1]) }
        let device = try DeviceProcess(
            "light", on: h1, lan: lan, work: work,
            ["--mdns", "embedded", "--interface", "lan0", "--discriminator", "2345", "--secured-device-port", "5540"])

        // Avahi in host 2 resolves the embedded responder's records to host 1's address.
        var line: [String]?
        let resolved = try eventually(20) {
            line = try avahiResolved(in: h2).first { $0[2] == "IPv4" && $0[9].contains("\"D=2345\"") }
            return line != nil
        }
        #expect(resolved, "avahi-browse in \(h2) never resolved the device")
        if let line {
            #expect(line[7] == lan.ipv4(1), "\(line)")
            #expect(line[8] == "5540", "\(line)")
            #expect(line[6].hasPrefix("matter-") && line[6].hasSuffix(".local"), "\(line)")
        }

        // Our Avahi browser in host 2 and our embedded querier in host 3 (beside that host's avahi-daemon).
        for (host, mdns) in [(h2, "avahi"), (h3, "embedded")] {
            let found = try lan.run(
                host,
                [
                    BuiltBinaries.matterEmu, "discover", "commissionable", "--discriminator", "2345", "--count", "1",
                    "--timeout", "10", "--mdns", mdns, "--json",
                ])
            #expect(found.exitCode == 0, "\(mdns) in \(host): \(found.stderr)")
            let nodes = try found.json()["nodes"] as? [[String: Any]] ?? []
            #expect(nodes.first?["discriminator"] as? Int == 2345, "\(mdns) in \(host): \(found.stdout)")
            #expect(
                (nodes.first?["addresses"] as? [String])?.contains("\(lan.ipv4(1)):5540") == true, "\(found.stdout)")
        }

        // Commissioning from host 3 through the embedded querier, then a command on the node (its operational
        // record resolved through the embedded responder too).
        let controller = work.path("controller")
        let paired = try lan.run(
            h3,
            [
                BuiltBinaries.matterEmu, "pairing", "code", "1", device.qrCode, "--mdns", "embedded", "--state-dir",
                controller, "--json",
            ], timeout: 90)
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        let toggled = try lan.run(
            h3, [BuiltBinaries.matterEmu, "onoff", "on", "1", "1", "--mdns", "embedded", "--state-dir", controller])
        #expect(toggled.exitCode == 0, "\(toggled.stderr)")
        #expect(device.reports(timeout: 5, DeviceProcess.onOff(true)))

        // Goodbyes: once the device stops, Avahi in host 2 drops its commissionable record.
        _ = device.process.stop()
        let gone = try eventually(20) { try avahiResolved(in: h2).allSatisfy { !$0[9].contains("\"D=2345\"") } }
        #expect(gone, "the device's records stayed in \(h2)'s Avahi after it stopped")
    }

    @Test("a fleet of more than 100 without --mdns advertises through the embedded responder, without avahi-daemon")
    func largeFleetChoosesTheEmbeddedResponder() throws {
        let work = try WorkDirectory(prefix: "mdns-lan-fleet")
        defer { work.remove() }
        let (h1, h3) = (lan.host(1), lan.host(3))
        try lan.control(["avahi-stop", h1])
        defer { _ = try? lan.control(["avahi-start", h1]) }
        let fleet = try lan.start(
            h1,
            [
                BuiltBinaries.matterEmu, "fleet", "--count", "101", "--base-port", "0", "--base-discriminator", "1700",
                "--state-dir", work.path("fleet"), "--json",
            ],
            name: "fleet", in: work)
        defer { fleet.stop() }
        let listing = fleet.jsonLine(within: .seconds(60)) { $0["devices"] != nil }
        #expect(listing != nil, "the fleet did not start: \(fleet.stderr)")
        #expect(fleet.stderr.contains("embedded mDNS responder"), "\(fleet.stderr)")
        // The last device (discriminator 1700 + 256 × 4 + 6, device 100 = 16 × 6 + 4) found from host 3.
        let found = try lan.run(
            h3,
            [
                BuiltBinaries.matterEmu, "discover", "commissionable", "--discriminator", "2730", "--count", "1",
                "--timeout", "10", "--mdns", "embedded", "--json",
            ])
        #expect(found.exitCode == 0, "\(found.stderr)")
        let nodes = try found.json()["nodes"] as? [[String: Any]] ?? []
        #expect(nodes.first?["discriminator"] as? Int == 2730, "\(found.stdout)")
    }

    @Test("a fleet's light switch finds the light beside it in the same process, through the embedded responder")
    func switchInAFleetCommandsItsSibling() throws {
        let work = try WorkDirectory(prefix: "mdns-lan-siblings")
        defer { work.remove() }
        let (h1, h3) = (lan.host(1), lan.host(3))
        let config = work.path("fleet.json")
        try #"""
        {"groups": [{"type": "on-off-light", "count": 1, "name": "Lamp"},
                    {"type": "on-off-light-switch", "count": 1, "name": "Switch"}], "basePort": 0}
        """#.write(toFile: config, atomically: true, encoding: .utf8)
        let socket = work.path("fleet.sock")
        let fleet = try lan.start(
            h1,
            [
                BuiltBinaries.matterEmu, "fleet", "--config", config, "--mdns", "embedded", "--base-discriminator",
                "1900", "--control", socket, "--state-dir", work.path("fleet"), "--json",
            ],
            name: "fleet", in: work)
        defer { fleet.stop() }
        let listing = try #require(
            fleet.jsonLine(within: .seconds(60)) { $0["devices"] != nil }, "the fleet did not start: \(fleet.stderr)")
        let codes = (listing["devices"] as? [[String: Any]] ?? []).compactMap { $0["qrCode"] as? String }
        try #require(codes.count == 2, "\(listing)")
        let controller = ["--state-dir", work.path("controller"), "--mdns", "embedded"]
        func cli(_ arguments: [String]) throws -> ProcessResult {
            try lan.run(h3, [BuiltBinaries.matterEmu] + arguments + controller, timeout: 90)
        }
        for (node, code) in zip(["1", "2"], codes) {
            let paired = try cli(["pairing", "code", node, code])
            #expect(paired.exitCode == 0, "node \(node): \(paired.stderr)")
        }
        try bindSwitchToLight(cli)

        // The switch (device 1 of the fleet) resolves the lamp's operational record, which the same process
        // publishes: its querier reads it from its own responder's index, since it drops its own echoes.
        let sent = try ProcessRunner.runMatterEmu(
            ["ctl", socket, #"{"op":"send","device":1,"endpoint":1,"cluster":"OnOff","command":"Toggle"}"#],
            limit: .seconds(60))
        #expect(sent.exitCode == 0 && sent.stdout.contains(#""delivered":true"#), "\(sent.stdout) \(sent.stderr)")
        let read = try cli(["onoff", "read", "on-off", "1", "1", "--json"])
        #expect(try read.json()["value"] as? Bool == true, "\(read.stdout)\(read.stderr)")
    }

    @Test(
        "a light switch (embedded querier) toggles a light found through Avahi, as itself, once the light's ACL grants it"
    )
    func switchCommandsLightAcrossHosts() throws {
        let work = try WorkDirectory(prefix: "binding-lan")
        let (h1, h2, h3) = (lan.host(1), lan.host(2), lan.host(3))
        let light = try DeviceProcess(
            "bound-light", on: h1, lan: lan, work: work,
            ["--type", "on-off-light", "--interface", "lan0", "--discriminator", "2346"])
        let socket = work.path("switch.sock")
        let toggle = try DeviceProcess(
            "switch", on: h2, lan: lan, work: work,
            [
                "--type", "on-off-light-switch", "--mdns", "embedded", "--interface", "lan0", "--discriminator",
                "2347", "--control", socket,
            ])
        let controller = work.path("controller")
        for (node, device) in [("1", light), ("2", toggle)] {
            let paired = try lan.run(
                h3, [BuiltBinaries.matterEmu, "pairing", "code", node, device.qrCode, "--state-dir", controller],
                timeout: 90)
            #expect(paired.exitCode == 0, "node \(node): \(paired.stderr)")
        }
        func cli(_ arguments: [String]) throws -> ProcessResult {
            try lan.run(h3, [BuiltBinaries.matterEmu] + arguments + ["--state-dir", controller])
        }
        try bindSwitchToLight(cli)

        // The switch finds the light's operational record (published by host 1's avahi-daemon) with its
        // embedded querier, opens CASE as node 2 and toggles it.
        let mark = light.eventCount
        let sent = try ProcessRunner.runMatterEmu(
            ["ctl", socket, #"{"op":"send","endpoint":1,"cluster":"OnOff","command":"Toggle"}"#], limit: .seconds(60))
        #expect(sent.exitCode == 0 && sent.stdout.contains(#""delivered":true"#), "\(sent.stdout) \(sent.stderr)")
        #expect(light.reports(after: mark, timeout: 5, DeviceProcess.onOff(true)))
        _ = light.process.stop()
        _ = toggle.process.stop()
    }
}
