import Foundation
import MatterTestSupport
import Testing

/// A hostile peer on the virtual LAN (scripts/lan.sh, root, prefix hp; run by scripts/test-hostile.sh).
/// Host 1 runs an on-off light, host 2 commissions it and keeps toggling it (each toggle read back) while
/// host 3 floods it with matter-emu-hostile: random and mutated datagrams, valid headers with garbage
/// payloads, replays, unknown sessions, half-open PASE and CASE attempts, at the device's IPv4 and IPv6
/// link-local addresses. Checks that every toggle succeeded, the device lives, its memory stayed
/// bounded, its counters account for every datagram under the reason the hostile peer predicted, and
/// that it is still controllable (and can still add a second fabric) afterwards; prints the figures for
/// docs/RELIABILITY.md. The tests share state and run in source order.
///
/// Env: HOSTILE_COUNT (default 100000), HOSTILE_RATE (datagrams/s, default 2000), HOSTILE_SEED (default 1),
/// RSS_GROWTH_LIMIT_KB (default 30720).
@Suite(.serialized, .enabled(if: LAN.isUp(for: "hostile"), "needs the LAN of scripts/test-hostile.sh"))
struct HostileTests {
    static let suiteName = "hostile"
    static let port = 5540
    let fixture = HostileFixture.shared
    let lan: LAN

    init() throws { lan = try LAN.required(for: Self.suiteName) }

    private var address: String { "\(lan.ipv4(1)):\(Self.port)" }

    @Test("device on host 1 commissioned from host 2")
    func commission() throws {
        let device = try fixture.device()
        let result = try fixture.ctl([
            "pairing", "already-discovered", "1", "20202021", lan.ipv4(1), "\(Self.port)", "--name", "lamp",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        for _ in 0..<3 { _ = try fixture.toggle() }  // warm-up: CASE, resumption, the controller's caches
        fixture.before = device.freshStats()
    }

    @Test("matter-emu-hostile sent all its datagrams, at IPv4 and the IPv6 link-local address")
    func attack() throws {
        let device = try fixture.device()
        let linkLocal = try lan.linkLocal(lan.host(1))
        var targets = ["--target", address]
        if let linkLocal { targets += ["--target", "[\(linkLocal)%lan0]:\(Self.port)"] }
        fixture.targets = targets.filter { $0 != "--target" }
        let toggler = Toggler(fixture: fixture)
        toggler.start()
        let lossesBefore = try lan.networkLosses()
        let environment = ProcessInfo.processInfo.environment
        let count = environment["HOSTILE_COUNT"] ?? "100000"
        let hostile = try lan.run(
            lan.host(3),
            [BuiltBinaries.hostile] + targets + [
                "--count", count, "--rate", environment["HOSTILE_RATE"] ?? "2000", "--seed",
                environment["HOSTILE_SEED"] ?? "1",
                "--json",
            ], timeout: 3600)
        fixture.toggles = toggler.stop()
        fixture.losses = try lan.networkLosses() - lossesBefore
        Thread.sleep(forTimeInterval: 1.5)
        fixture.after = device.freshStats()
        fixture.summary = try? hostile.json()
        #expect(hostile.exitCode == 0, "\(hostile.stderr.suffix(500))")
        #expect(fixture.summary?["sent"] as? Int == Int(count), "\(hostile.stdout)")
        #expect(linkLocal != nil, "host 1 has no IPv6 link-local address (attacked over IPv4 only)")
    }

    @Test("every toggle during the attack succeeded (at least 10)")
    func everyToggleSucceeded() throws {
        let toggles = fixture.toggles
        #expect(
            toggles.failed == 0 && toggles.succeeded >= 10,
            "\(toggles.succeeded) ok, \(toggles.failed) failed: \(toggles.errors.prefix(5))")
    }

    @Test("every read-back showed the toggled state")
    func everyReadBack() throws {
        let toggles = fixture.toggles
        #expect(
            toggles.readsBad == 0 && toggles.readsOK == toggles.succeeded,
            "\(toggles.readsOK) ok, \(toggles.readsBad) not: \(toggles.errors.filter { $0.hasPrefix("read-back") }.prefix(5))"
        )
    }

    @Test("the device process is alive")
    func deviceAlive() throws {
        #expect(try fixture.device().process.isRunning)
    }

    @Test("resident memory grew less than RSS_GROWTH_LIMIT_KB (30 MB)")
    func memoryBounded() throws {
        let limit = Int64(ProcessInfo.processInfo.environment["RSS_GROWTH_LIMIT_KB"] ?? "") ?? 30_720
        let before = try #require(fixture.before?["rssKB"]?.int)
        let after = try #require(fixture.after?["rssKB"]?.int)
        #expect(after - before < limit, "\(before) kB → \(after) kB")
    }

    @Test("device counters account for every hostile datagram under its predicted reason")
    func countersAccount() throws {
        let before = try #require(fixture.before)
        let after = try #require(fixture.after)
        let summary = try #require(fixture.summary)
        let report = CounterReport(
            before: before, after: after, summary: summary, losses: fixture.losses, toggles: fixture.toggles.succeeded)
        for line in report.lines { print("hostile:   \(line.good ? "ok  " : "FAIL") \(line.name): \(line.text)") }
        for line in report.lines { #expect(line.good, "\(line.name): \(line.text)") }
        fixture.figures += report.figures
    }

    @Test("after the attack: toggle works")
    func toggleAfter() throws {
        let before = try fixture.readOnOff()
        #expect(try fixture.toggle())
        let after = try fixture.readOnOff()
        #expect(
            before != nil && after != nil && before != after,
            "\(String(describing: before)) → \(String(describing: after))")
    }

    @Test("after the attack: commissioning with the old passcode is refused (exit 4, window closed)")
    func oldPasscodeRefused() throws {
        let result = try fixture.ctl([
            "pairing", "already-discovered", "2", "20202021", lan.ipv4(1), "\(Self.port)", "--timeout", "5",
        ])
        #expect(result.exitCode == 4, "\(result.stderr)")
    }

    @Test("after the attack: a second fabric joins through an enhanced window and controls the device")
    func secondFabric() throws {
        let window = try fixture.ctl(["pairing", "open-commissioning-window", "1", "--address", address, "--json"])
        let manual = try #require(try window.json()["manualCode"] as? String, "\(window.stderr)")
        let second = try fixture.work().path("second")
        let pairing = try lan.run(
            lan.host(3),
            [BuiltBinaries.matterEmu, "pairing", "code", "7", manual, "--address", address, "--state-dir", second])
        #expect(pairing.exitCode == 0, "\(pairing.stderr.suffix(500))")
        let toggle = try lan.run(
            lan.host(3), [BuiltBinaries.matterEmu, "onoff", "toggle", "7", "--address", address, "--state-dir", second])
        #expect(toggle.exitCode == 0, "\(toggle.stderr.suffix(500))")
    }

    @Test("the device stopped cleanly on SIGTERM with a final stats line")
    func cleanStop() throws {
        let device = try fixture.device()
        device.process.stop()
        let final = device.process.lines.last { $0.contains("\"event\":\"stats\"") }.flatMap(JSONScalar.object)
        #expect(final?["final"] == .bool(true))
        fixture.printFigures(seed: ProcessInfo.processInfo.environment["HOSTILE_SEED"] ?? "1")
    }
}
