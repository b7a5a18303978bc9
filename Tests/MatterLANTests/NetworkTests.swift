import Foundation
import MatterTestSupport
import Testing

/// MatterDiscovery end to end over real Avahi daemons on three hosts of the virtual LAN (scripts/lan.sh,
/// root; run by scripts/test-network.sh). `matter-dnssd-probe` publishes in one host and browses and
/// resolves from the others with each filter; updates, withdrawal, name collisions, a daemon restart and
/// 200 services from one process are checked; `avahi-browse` cross-checks subtypes and TXT keys; the last
/// tests take the LAN down and check that nothing is left. The tests share state and run in source order.
@Suite(.serialized, .enabled(if: LAN.isUp(for: "network"), "needs the LAN of scripts/test-network.sh"))
struct NetworkTests {
    static let suiteName = "network"
    let fixture = NetworkFixture.shared
    let lan: LAN
    let quick = ["--timeout", "2"]

    init() throws { lan = try LAN.required(for: Self.suiteName) }

    private func browse(_ host: Int, _ arguments: [String]) throws -> ProbeBrowse {
        ProbeBrowse(try lan.run(lan.host(host), [BuiltBinaries.probe, "browse"] + arguments))
    }

    private func lists(_ host: Int, _ expected: Set<String>, _ arguments: [String]) throws -> Bool {
        let result = try browse(host, arguments + quick)
        if !result.lists(exactly: expected) { print("network: expected \(expected.sorted()), got:\n\(result.text)") }
        return result.lists(exactly: expected)
    }

    private func absent(_ host: Int, _ name: String, _ arguments: [String]) throws -> Bool {
        let result = try browse(host, arguments)
        return result.exitCode == 0 && !result.instances.contains(name)
    }

    /// `avahi-browse -pt TYPE` in host lists instance `name`.
    private func avahiLists(_ host: Int, _ type: String, _ name: String) throws -> Bool {
        let result = try lan.run(lan.host(host), ["avahi-browse", "-pt", type])
        return result.lines.contains {
            $0.split(separator: ";", omittingEmptySubsequences: false).dropFirst(3).first.map(String.init) == name
        }
    }

    private func avahiResolved(_ host: Int, _ name: String) throws -> AvahiResolved? {
        try lan.run(lan.host(host), ["avahi-browse", "-rpt", "_matterc._udp"]).lines.compactMap(AvahiResolved.init)
            .first { $0.proto == "IPv4" && $0.name == name }
    }

    private static func isInstanceName(_ name: String?) -> Bool {
        guard let name, name.count == 16 else { return false }
        return name.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
    }

    private static let noDaemon =
        "matter-dnssd-probe: no Avahi daemon reachable (is avahi-daemon running?); use --address HOST:PORT"

    // MARK: - the root namespace, then the LAN

    @Test(
        "root namespace: no daemon -> exit 3 with the one-line message",
        .enabled(if: !FileManager.default.fileExists(atPath: "/run/dbus/system_bus_socket")))
    func rootNamespaceHasNoDaemon() throws {
        let result = try ProcessRunner.run([BuiltBinaries.probe, "check"], limit: .seconds(10))
        #expect(result.exitCode == 3)
        #expect(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == Self.noDaemon)
    }

    @Test("the LAN: three hosts, each with its own avahi-daemon answering")
    func lanIsUp() throws {
        #expect(lan.hostCount == 3)
        for index in 1...3 {
            let result = try lan.run(lan.host(index), [BuiltBinaries.probe, "check"], timeout: 10)
            #expect(
                result.exitCode == 0 && result.stdout.contains("avahi: reachable"),
                "\(lan.host(index)): \(result.stderr)")
        }
    }

    // MARK: - publish

    @Test("publish: commissionable instance names are 16 upper-case hex digits")
    func publishNames() throws {
        let (a, b) = try fixture.names()
        #expect(Self.isInstanceName(a) && Self.isInstanceName(b), "\(a), \(b)")
    }

    @Test("publish: operational instance is <CFID>-<NODE>")
    func publishOperationalName() throws {
        #expect(try fixture.nodes().a.established("operational") == NetworkFixture.operationalName)
    }

    // Raw records skip the probe phase: Avahi reports A's entry group ESTABLISHED before the probes of
    // the SRV copy that guards against conflicts have finished (an order of two events of one daemon, not
    // a timing).
    @Test("raw records: commissionable group established before the probe phase ended")
    func rawCommissionableOrder() throws {
        let a = try fixture.nodes().a
        let name = try fixture.names().a
        let established = try #require(a.lineNumber("established commissionable \(name) "))
        let checked = try #require(a.lineNumber("conflict-checked \(name) "))
        #expect(established < checked)
    }

    @Test("raw records: operational group established before the probe phase ended")
    func rawOperationalOrder() throws {
        let a = try fixture.nodes().a
        let name = NetworkFixture.operationalName
        let established = try #require(a.lineNumber("established operational \(name) "))
        let checked = try #require(a.lineNumber("conflict-checked \(name) "))
        #expect(established < checked)
    }

    // MARK: - browse and resolve from another host, each filter

    @Test("browse any (from host 2): both nodes")
    func browseAny() throws {
        let (a, b) = try fixture.names()
        #expect(try lists(2, [a, b], ["commissionable"]))
    }

    @Test("filter long discriminator 3840")
    func filterLong3840() throws {
        #expect(try lists(2, [try fixture.names().a], ["commissionable", "--long", "3840"]))
    }

    @Test("filter long discriminator 1234")
    func filterLong1234() throws {
        #expect(try lists(2, [try fixture.names().b], ["commissionable", "--long", "1234"]))
    }

    @Test("filter short discriminator 15")
    func filterShort15() throws { #expect(try lists(2, [try fixture.names().a], ["commissionable", "--short", "15"])) }

    @Test("filter short discriminator 4")
    func filterShort4() throws { #expect(try lists(2, [try fixture.names().b], ["commissionable", "--short", "4"])) }

    @Test("filter vendor 65521")
    func filterVendor() throws {
        #expect(try lists(2, [try fixture.names().a], ["commissionable", "--vendor", "65521"]))
    }

    @Test("filter device type 257")
    func filterDeviceType() throws {
        #expect(try lists(2, [try fixture.names().a], ["commissionable", "--device-type", "257"]))
    }

    @Test("filter commissioning mode (_CM)")
    func filterCommissioningMode() throws {
        #expect(try lists(2, [try fixture.names().a], ["commissionable", "--cm-open"]))
    }

    @Test("filter instance name (lower case)")
    func filterInstance() throws {
        let a = try fixture.names().a
        #expect(try lists(2, [a], ["commissionable", "--instance", a.lowercased()]))
    }

    @Test("resolve: TXT parsed (D, CM, VP, DT) and port")
    func resolveTXT() throws {
        let a = try fixture.names().a
        let node = try #require(
            try browse(3, ["commissionable", "--instance", a, "--limit", "1", "--timeout", "10"]).node(a))
        #expect(node.fields["host"] == "\(lan.host(1)).local")
        #expect(node.fields["port"] == "5540")
        #expect(node.fields["D"] == "3840" && node.fields["CM"] == "1")
        #expect(node.fields["VP"] == "65521+32769" && node.fields["DT"] == "257")
    }

    @Test("resolve: IPv4 address of host 1")
    func resolveIPv4() throws {
        let a = try fixture.names().a
        let node = try #require(
            try browse(3, ["commissionable", "--instance", a, "--limit", "1", "--timeout", "10"]).node(a))
        #expect(node.addresses.contains(lan.ipv4(1)), "\(node.addresses)")
    }

    @Test("resolve: IPv6 link-local address keeps its interface index")
    func resolveLinkLocal() throws {
        let a = try fixture.names().a
        let node = try #require(
            try browse(3, ["commissionable", "--instance", a, "--limit", "1", "--timeout", "10"]).node(a))
        let scoped = node.addresses.filter { address in
            guard address.hasPrefix("fe80::"), let percent = address.firstIndex(of: "%") else { return false }
            return Int(address[address.index(after: percent)...]).map { $0 > 0 } ?? false
        }
        #expect(!scoped.isEmpty, "\(node.addresses)")
    }

    @Test("resolve operational node (from host 3): port and MRP keys")
    func resolveOperational() throws {
        _ = try fixture.nodes()
        let name = NetworkFixture.operationalName
        let node = try #require(
            try browse(3, ["operational", "--node", name, "--limit", "1", "--timeout", "10"]).node(name))
        #expect(node.fields["host"] == "\(lan.host(1)).local" && node.fields["port"] == "5540")
        #expect(node.fields["SII"] == "5000" && node.fields["SAI"] == "300")
    }

    @Test("browse operational by fabric (_I subtype)")
    func browseByFabric() throws {
        _ = try fixture.nodes()
        #expect(
            try lists(
                3, [NetworkFixture.operationalName],
                ["operational", "--fabric", "0x" + NetworkFixture.compressedFabricID]))
    }

    // MARK: - the CLI: matter-emu discover on another host

    @Test("matter-emu discover --discriminator 3840 --vendor-id (from host 3): only node A, with its fields")
    func cliDiscoverCommissionable() throws {
        let (a, b) = try fixture.names()
        let result = try lan.run(
            lan.host(3),
            [
                BuiltBinaries.matterEmu, "discover", "commissionable", "--discriminator", "3840", "--vendor-id",
                "0xFFF1",
                "--timeout", "3", "--json",
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let nodes = try #require(try result.json()["nodes"] as? [[String: Any]], "\(result.stdout)")
        let instances = nodes.compactMap { $0["instance"] as? String }
        #expect(instances.contains(a) && !instances.contains(b), "\(instances)")
        let node = try #require(nodes.first { $0["instance"] as? String == a })
        #expect(node["discriminator"] as? Int == 3840)
        #expect((node["addresses"] as? [String] ?? []).contains("\(lan.ipv4(1)):5540"), "\(node)")
    }

    @Test("matter-emu discover operational --fabric (from host 3)")
    func cliDiscoverOperational() throws {
        _ = try fixture.nodes()
        let result = try lan.run(
            lan.host(3),
            [
                BuiltBinaries.matterEmu, "discover", "operational", "--fabric", NetworkFixture.compressedFabricID,
                "--timeout", "3",
                "--json",
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let nodes = try #require(try result.json()["nodes"] as? [[String: Any]], "\(result.stdout)")
        #expect(nodes.contains { $0["instance"] as? String == NetworkFixture.operationalName }, "\(result.stdout)")
    }

    @Test("matter-emu discover with no match exits 3")
    func cliDiscoverNoMatch() throws {
        let result = try lan.run(
            lan.host(3),
            [BuiltBinaries.matterEmu, "discover", "commissionable", "--discriminator", "4000", "--timeout", "2"])
        #expect(result.exitCode == 3)
    }

    // MARK: - what avahi-browse sees on another host

    @Test("avahi-browse -rpt: TXT keys D CM VP DT DN PH SII SAI SAT T")
    func avahiTXT() throws {
        let a = try fixture.names().a
        let record = try #require(try avahiResolved(3, a))
        for entry in [
            "D=3840", "CM=1", "VP=65521+32769", "DT=257", "DN=Light", "PH=33", "SII=5000", "SAI=300", "SAT=4000", "T=4",
        ] {
            #expect(record.txt.contains(entry), "missing \(entry) in \(record.txt)")
        }
    }

    @Test("avahi-browse: subtypes _L3840 _S15 _V65521 _T257 _CM (and none for CM=0)")
    func avahiSubtypes() throws {
        let (a, b) = try fixture.names()
        // A few tries: `avahi-browse -t` stops at its first "all for now", which can beat a late answer.
        for subtype in ["_L3840", "_S15", "_V65521", "_T257", "_CM"] {
            #expect(
                try eventuallyBlocking(within: .seconds(4), every: .seconds(1)) {
                    try avahiLists(3, "\(subtype)._sub._matterc._udp", a)
                }, "\(a) missing under \(subtype)"
            )
        }
        #expect(
            try eventuallyBlocking(within: .seconds(4), every: .seconds(1)) {
                try avahiLists(3, "_L1234._sub._matterc._udp", b)
            }, "\(b) missing under _L1234")
        #expect(try !avahiLists(3, "_CM._sub._matterc._udp", b), "\(b) (CM=0) listed under _CM")
    }

    @Test("avahi-browse: operational subtype _I<CFID>")
    func avahiOperationalSubtype() throws {
        _ = try fixture.nodes()
        #expect(
            try eventuallyBlocking(within: .seconds(4), every: .seconds(1)) {
                try avahiLists(
                    3, "_I\(NetworkFixture.compressedFabricID)._sub._matter._tcp", NetworkFixture.operationalName)
            })
    }

    // MARK: - name collisions

    @Test("collision: the second host picked a new random name")
    func collisionRenames() throws {
        let a = try fixture.names().a
        let c = try fixture.publish("c", on: lan.host(2), ["--instance", a, "--discriminator", "100"])
        fixture.keep("c", c)
        // Raw records are established at once under the old name; "ready" comes after the probe of the
        // name in use has passed, so by then the conflict has been found and the node renamed.
        try #require(c.waitUntilReady(), "second publisher never established")
        let renamed = c.currentName()
        fixture.keep("c-name", renamed)
        #expect(Self.isInstanceName(renamed) && renamed != a, "\(renamed ?? "-")")
    }

    @Test("collision: the renamed node is visible")
    func collisionRenamedVisible() throws {
        defer { _ = fixture.kept("c").map { $0.quit() } }
        let renamed = try #require(fixture.keptName("c-name"))
        #expect(try lists(3, [renamed], ["commissionable", "--instance", renamed]))
    }

    @Test("collision: the original owner kept its name")
    func collisionOwnerKeeps() throws {
        let a = try fixture.names().a
        #expect(try lists(3, [a], ["commissionable", "--instance", a]))
    }

    @Test("collision: a --probe newcomer renames against raw records")
    func collisionProbingNewcomer() throws {
        let a = try fixture.names().a
        let d = try fixture.publish("d", on: lan.host(3), ["--instance", a, "--discriminator", "101", "--probe"])
        defer { _ = d.quit() }
        try #require(d.waitUntilReady())
        let renamed = d.currentName()
        #expect(Self.isInstanceName(renamed) && renamed != a, "\(d.process.stdout)")
    }

    @Test("collision: the raw owner kept its name")
    func collisionRawOwnerKeeps() throws {
        let a = try fixture.names().a
        #expect(try lists(3, [a], ["commissionable", "--instance", a]))
    }

    // Raw records of a newcomer, announced at once, send an established probed service back to probing,
    // so the two probe at the same time and RFC 6762's tie-break (§8.2) picks who renames: exactly one.
    @Test("collision: raw newcomer against a probed owner: exactly one renames")
    func collisionTieBreak() throws {
        let shared = "2222333344445555"
        let f = try fixture.publish("f", on: lan.host(1), ["--instance", shared, "--discriminator", "102", "--probe"])
        defer { _ = f.quit() }
        try #require(f.waitUntilReady())
        let e = try fixture.publish("e", on: lan.host(2), ["--instance", shared, "--discriminator", "103"])
        defer { _ = e.quit() }
        try #require(e.waitUntilReady())
        // Whichever lost the tie-break has renamed once the loser's new name passed its probe.
        e.process.stdoutLine(within: .seconds(10)) { $0.hasPrefix("conflict-checked ") }
        Thread.sleep(forTimeInterval: 2)
        let nameF = f.currentName()
        let nameE = e.currentName()
        #expect(
            Self.isInstanceName(nameF) && Self.isInstanceName(nameE) && nameF != nameE,
            "f=\(nameF ?? "-") e=\(nameE ?? "-")")
        #expect(nameF == shared || nameE == shared, "f=\(nameF ?? "-") e=\(nameE ?? "-")")
    }

    // MARK: - updates

    @Test("update: a TXT-only change (SII) reaches another host")
    func updateTXT() throws {
        let (a, name) = (try fixture.nodes().a, try fixture.names().a)
        try #require(a.command("sii 7000", confirmation: "updated sii 7000"), "probe did not confirm sii 7000")
        #expect(
            try eventuallyBlocking(within: .seconds(15), every: .seconds(1)) {
                try avahiResolved(2, name)?.txt.contains("SII=7000") == true
            })
    }

    @Test("update: the TXT change kept the instance name")
    func updateKeepsName() throws {
        #expect(try fixture.nodes().a.currentName() == (try fixture.names().a))
    }

    @Test("update: CM=0 drops the node from the _CM browse")
    func updateCommissioningModeBrowse() throws {
        let (a, name) = (try fixture.nodes().a, try fixture.names().a)
        try #require(a.command("cm 0", confirmation: "updated cm 0"), "probe did not confirm cm 0")
        #expect(
            try eventuallyBlocking(within: .seconds(15), every: .seconds(1)) {
                try absent(2, name, ["commissionable", "--cm-open", "--timeout", "2"])
            })
    }

    @Test("update: TXT now says CM=0")
    func updateCommissioningModeTXT() throws {
        let name = try fixture.names().a
        #expect(
            try eventuallyBlocking(within: .seconds(15), every: .seconds(1)) {
                try browse(2, ["commissionable", "--instance", name, "--limit", "1", "--timeout", "5"]).node(name)?
                    .fields["CM"] == "0"
            })
    }

    // MARK: - withdraw

    @Test("withdraw: the commissionable service disappears")
    func withdrawCommissionable() throws {
        let (a, name) = (try fixture.nodes().a, try fixture.names().a)
        try #require(a.command("withdraw", confirmation: "withdrawn"), "probe did not confirm withdraw")
        #expect(
            try eventuallyBlocking(within: .seconds(15), every: .seconds(1)) {
                try absent(2, name, ["commissionable", "--timeout", "2"])
            })
    }

    @Test("withdraw: the operational service stays")
    func withdrawKeepsOperational() throws {
        _ = try fixture.nodes()
        #expect(try lists(2, [NetworkFixture.operationalName], ["operational"]))
    }

    // MARK: - the daemon goes away and comes back

    @Test("daemon stop: the operational record is withdrawn")
    func daemonStopWithdraws() throws {
        _ = try fixture.nodes()
        fixture.remember(lan.daemonPIDs())
        let stop = try lan.control(["avahi-stop", lan.host(1)])
        try #require(stop.exitCode == 0, "avahi-stop: \(stop.stderr)")
        #expect(
            try eventuallyBlocking(within: .seconds(15), every: .seconds(1)) {
                try absent(3, NetworkFixture.operationalName, ["operational", "--timeout", "2"])
            })
    }

    @Test("daemon stop: a new client gets the typed error at once (D-Bus up, no daemon)")
    func daemonStopTypedError() throws {
        let result = try lan.run(lan.host(1), ["timeout", "10", BuiltBinaries.probe, "check"], timeout: 20)
        #expect(result.exitCode == 3)
        #expect(result.stderr.contains(Self.noDaemon), "\(result.stderr)")
    }

    @Test("daemon back: the publisher re-registered its operational record")
    func daemonBackOperational() throws {
        _ = try fixture.nodes()
        let start = try lan.control(["avahi-start", lan.host(1)])
        try #require(start.exitCode == 0, "avahi-start: \(start.stderr)")
        fixture.remember(lan.daemonPIDs())
        let name = NetworkFixture.operationalName
        let result = try browse(3, ["operational", "--node", name, "--limit", "1", "--timeout", "20"])
        #expect(result.found == 1 && result.instances == [name], "\(result.text)")
    }

    @Test("daemon back: the other node re-registered too")
    func daemonBackOtherNode() throws {
        let b = try fixture.names().b
        let result = try browse(3, ["commissionable", "--instance", b, "--limit", "1", "--timeout", "20"])
        #expect(result.lists(exactly: [b]), "\(result.text)")
    }

    // MARK: - 200 services from one process

    @Test("200 services: all established")
    func twoHundredEstablished() throws {
        let many = try fixture.publish(
            "many", on: lan.host(3), ["--count", "200", "--discriminator", "1000", "--vendor", "65523"])
        fixture.keep("many", many)
        try #require(many.waitUntilReady(timeout: 120), "publisher not ready")
        #expect(many.process.lines.filter { $0.hasPrefix("established commissionable ") }.count == 200)
    }

    @Test("200 services: all 200 found from host 1")
    func twoHundredFound() throws {
        let result = try browse(1, ["commissionable", "--vendor", "65523", "--limit", "200", "--timeout", "60"])
        fixture.keep("many-browse", result)
        #expect(result.found == 200, "\(result.found ?? -1) found")
    }

    @Test("200 services: 200 distinct instances, each with an address")
    func twoHundredDistinct() throws {
        let result = try #require(fixture.keptBrowse("many-browse"))
        let addressed = Set(result.nodes.filter { !$0.addresses.isEmpty }.map(\.instance))
        #expect(addressed.count == 200, "\(addressed.count)")
    }

    @Test("200 services: the publisher stops cleanly")
    func twoHundredStop() throws {
        let many = try #require(fixture.kept("many"))
        #expect(many.quit())
    }

    @Test("publishers stop cleanly")
    func publishersStop() throws {
        let (a, b) = try fixture.nodes()
        #expect(a.quit(timeout: 10) && b.quit(timeout: 10))
    }

    // MARK: - teardown leaves nothing behind

    @Test("lan.sh down")
    func teardown() throws {
        fixture.remember(lan.daemonPIDs())
        let down = try lan.control(["down"])
        #expect(down.exitCode == 0, "\(down.stderr)")
    }

    @Test("down: no PREFIX-* network namespace left")
    func teardownNamespaces() throws {
        let namespaces = try ProcessRunner.run(["ip", "netns", "list"], limit: .seconds(60)).stdout
        #expect(!namespaces.split(separator: "\n").contains { $0.hasPrefix("\(lan.prefix)-") }, "\(namespaces)")
    }

    @Test("down: no /run/netns/PREFIX-* mount left")
    func teardownMounts() throws {
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        #expect(!mounts.contains(" /run/netns/\(lan.prefix)-"))
    }

    @Test("down: every holder, dbus, avahi and probe process is gone")
    func teardownProcesses() throws {
        let pids = fixture.pids
        #expect(!pids.isEmpty)
        let left = pids.filter(Self.isAlive)
        #expect(left.isEmpty, "still running: \(left)")
    }

    @Test("down: is idempotent")
    func teardownIdempotent() throws {
        #expect(try lan.control(["down"]).exitCode == 0)
    }

    /// Alive and not a zombie waiting for its parent.
    private static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return true }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
