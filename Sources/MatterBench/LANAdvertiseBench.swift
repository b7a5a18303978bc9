import Foundation
import MatterCore
import MatterDiscovery
import Synchronization

// "Advertised on one host -> resolved on the other", raw records beside probed services, on the
// virtual LAN: `lan-advertise` publishes on h1, `lan-resolve` browses on h2; they take turns through
// files in a directory both hosts see (/tmp). Both read CLOCK_REALTIME of the same machine.

/// The two ways of publishing, in the order run `run` uses them (alternating, so drifting load falls
/// on both alike).
func advertiseModes(_ run: Int) -> [DNSSDPublishing] {
    run % 2 == 0 ? [.rawRecords, .probedServices] : [.probedServices, .rawRecords]
}

func modeName(_ mode: DNSSDPublishing) -> String { mode == .rawRecords ? "raw" : "probe" }

/// The fresh names of one run and mode, known to both hosts in advance.
struct AdvertiseNames {
    let commissionable: CommissionableAdvertisement
    let operational: OperationalAdvertisement

    init(run: Int, mode: DNSSDPublishing) {
        let index = UInt64(run * 2 + (mode == .rawRecords ? 0 : 1))
        commissionable = CommissionableAdvertisement(
            instanceName: hexDigits(0xBE0C_0000_0000_0000 + index, width: 16),
            longDiscriminator: UInt16(2000 + index % 1000))
        operational = OperationalAdvertisement(
            compressedFabricID: 0xBE0C_BE0C_BE0C_0001, nodeID: NodeID(index + 1))
    }

    static func key(_ run: Int, _ mode: DNSSDPublishing) -> String { "\(run)-\(modeName(mode))" }
}

func waitForFile(_ path: String, seconds: Int) async throws {
    for _ in 0..<(seconds * 200) {
        if FileManager.default.fileExists(atPath: path) { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    throw BenchError.failed("\(path) did not appear within \(seconds) s")
}

/// `lan-advertise --dir DIR --runs N` (publishing host): per run and mode, waits for DIR/go-KEY,
/// publishes a commissionable and an operational record through an Avahi client of that mode, writes
/// DIR/published-KEY (when it published and when Avahi said each was established), waits for
/// DIR/done-KEY and withdraws both.
func lanAdvertise(_ options: Options) async throws {
    let dir = try options.required("dir")
    let runs = options.int("runs", 10)
    let clients: [DNSSDPublishing: AvahiDNSSD] = [
        .rawRecords: try await AvahiDNSSD.start(label: "bench.advertise.raw", publishing: .rawRecords),
        .probedServices: try await AvahiDNSSD.start(label: "bench.advertise.probe", publishing: .probedServices),
    ]
    for run in 0..<runs {
        for mode in advertiseModes(run) {
            guard let dnssd = clients[mode] else { continue }
            let key = AdvertiseNames.key(run, mode)
            let names = AdvertiseNames(run: run, mode: mode)
            try await waitForFile("\(dir)/go-\(key)", seconds: 60)
            let published = unixTime()
            let commissionable = try await dnssd.publish(names.commissionable)
            let operational = try await dnssd.publish(names.operational)
            _ = try await dnssd.waitUntilEstablished(commissionable, timeout: .seconds(10))
            let commissionableEstablished = unixTime()
            _ = try await dnssd.waitUntilEstablished(operational, timeout: .seconds(10))
            let operationalEstablished = unixTime()
            try writeJSON(
                [
                    "published": published, "commissionableEstablished": commissionableEstablished,
                    "operationalEstablished": operationalEstablished,
                ], to: "\(dir)/published-\(key)")
            try await waitForFile("\(dir)/done-\(key)", seconds: 60)
            await dnssd.withdraw(commissionable)
            await dnssd.withdraw(operational)
        }
    }
    for dnssd in clients.values { await dnssd.stop() }
}

/// When each instance name was first resolved (SRV, TXT and an address), by lower-cased name.
final class FirstSeen: Sendable {
    let times = Mutex<[String: Double]>([:])

    /// Browses `query` in a task until `name` is resolved (or 10 s pass).
    func watch(_ dnssd: AvahiDNSSD, _ query: DNSSDQuery, _ name: String) -> Task<Void, Never> {
        Task {
            _ = try? await dnssd.browse(query, timeout: .seconds(10), limit: 1) { service in
                guard service.instanceName.lowercased() == name else { return false }
                let now = unixTime()
                self.times.withLock { if $0[name] == nil { $0[name] = now } }
                return true
            }
        }
    }
}

/// `lan-resolve --dir DIR --runs N` (the other host): per run and mode, starts browsing for the two
/// names, lets the publisher go, and records when each was resolved (SRV, TXT, address); reports
/// "advertised -> resolved" and "established" per mode.
func lanResolve(_ options: Options) async throws {
    let dir = try options.required("dir")
    let runs = options.int("runs", 10)
    let dnssd = try await AvahiDNSSD.start(label: "bench.resolve")
    var resolved: [DNSSDPublishing: (commissionable: Samples, operational: Samples)] = [:]
    var established: [DNSSDPublishing: (commissionable: Samples, operational: Samples)] = [:]
    var missed = 0
    for run in 0..<runs {
        for mode in advertiseModes(run) {
            let key = AdvertiseNames.key(run, mode)
            let names = AdvertiseNames(run: run, mode: mode)
            let commissionableName = names.commissionable.instanceName.lowercased()
            let operationalName = names.operational.instanceName.lowercased()
            let seen = FirstSeen()
            let browses = [
                seen.watch(
                    dnssd, CommissionableFilter.instanceName(names.commissionable.instanceName).query,
                    commissionableName),
                seen.watch(
                    dnssd,
                    OperationalFilter.node(
                        compressedFabricID: names.operational.compressedFabricID, nodeID: names.operational.nodeID
                    ).query, operationalName),
            ]
            // The browsers' first queries are out before the records exist.
            try await Task.sleep(for: .milliseconds(300))
            try writeJSON(["go": unixTime()], to: "\(dir)/go-\(key)")
            for browse in browses { await browse.value }
            try writeJSON(["done": unixTime()], to: "\(dir)/done-\(key)")
            try await waitForFile("\(dir)/published-\(key)", seconds: 30)
            guard let root = try readJSON("\(dir)/published-\(key)") as? [String: Double],
                let published = root["published"]
            else { throw BenchError.failed("published-\(key): unreadable") }
            let times = seen.times.withLock { $0 }
            guard let c = times[commissionableName], let o = times[operationalName] else {
                missed += 1
                continue
            }
            resolved[mode, default: (Samples(), Samples())].commissionable.add((c - published) * 1000)
            resolved[mode, default: (Samples(), Samples())].operational.add((o - published) * 1000)
            if let ce = root["commissionableEstablished"], let oe = root["operationalEstablished"] {
                established[mode, default: (Samples(), Samples())].commissionable.add((ce - published) * 1000)
                established[mode, default: (Samples(), Samples())].operational.add((oe - published) * 1000)
            }
        }
    }
    await dnssd.stop()
    for mode in [DNSSDPublishing.rawRecords, .probedServices] {
        guard let r = resolved[mode], let e = established[mode] else { continue }
        let name = modeName(mode)
        let how = mode == .rawRecords ? "raw records" : "probed services (--probe)"
        report(
            "lan-advertise \(name): advertised on h1, resolved on h2: commissionable p50 \(fmt(r.commissionable.p(0.5))) ms, "
                + "p95 \(fmt(r.commissionable.p(0.95))) ms; operational p50 \(fmt(r.operational.p(0.5))) ms, "
                + "p95 \(fmt(r.operational.p(0.95))) ms; established on h1 p50 \(fmt(e.commissionable.p(0.5))) / "
                + "\(fmt(e.operational.p(0.5))) ms (\(r.commissionable.count) runs)")
        figure(
            "lan-advertised-commissionable-\(name)",
            "commissionable record advertised on h1 → resolved on h2, \(how) (\(r.commissionable.count) runs)",
            median: r.commissionable.p(0.5), tail: r.commissionable.p(0.95), unit: "ms")
        figure(
            "lan-advertised-operational-\(name)",
            "operational record advertised on h1 → resolved on h2, \(how) (\(r.operational.count) runs)",
            median: r.operational.p(0.5), tail: r.operational.p(0.95), unit: "ms")
        figure(
            "lan-established-\(name)", "  of which: Avahi reports the commissionable entry group established, \(how)",
            median: e.commissionable.p(0.5), tail: e.commissionable.p(0.95), unit: "ms")
    }
    if missed > 0 { report("lan-advertise: \(missed) runs not resolved within 10 s") }
}
