import Foundation

/// One commissioning by the SDK's controller, as `chip_driver.py --bench-json` writes it: wall-clock
/// times (seconds since 1970) of the whole call and of each stage the SDK logged.
struct SDKRun {
    struct Stage {
        let name: String
        let start: Double
        let end: Double
    }

    let discriminator: Int
    let start: Double
    let end: Double
    let stages: [Stage]

    static func load(_ path: String) throws -> [SDKRun] {
        guard let root = try readJSON(path) as? [String: Any], let runs = root["runs"] as? [[String: Any]] else {
            throw BenchError.failed("\(path): no runs")
        }
        return runs.compactMap { run in
            guard run["ok"] as? Bool == true, let d = run["discriminator"] as? Int, let start = run["start"] as? Double,
                let end = run["end"] as? Double, let stages = run["stages"] as? [[String: Any]]
            else { return nil }
            return SDKRun(
                discriminator: d, start: start, end: end,
                stages: stages.compactMap { stage in
                    guard let name = stage["name"] as? String, let s = stage["start"] as? Double,
                        let e = stage["end"] as? Double
                    else { return nil }
                    return Stage(name: name, start: s, end: e)
                })
        }
    }
}

/// Our commissioner's stages that do what an SDK stage does (the SDK's names as in its log).
let ourStages: [String: [String]] = [
    "discovery (DNS-SD)": ["discovery"], "PASE (SecurePairing)": ["pase"],
    "ReadCommissioningInfo": ["readCommissioningInfo"], "ArmFailSafe": ["armFailSafe"],
    "ConfigRegulatory": ["configureRegulatory"], "SendPAICertificateRequest": ["paiCertificate"],
    "SendDACCertificateRequest": ["dacCertificate"], "SendAttestationRequest": ["attestationRequest"],
    "AttestationVerification": ["attestationVerification"], "SendOpCertSigningRequest": ["csrRequest"],
    "GenerateNOCChain": ["issueNOC"], "SendTrustedRootCert": ["addTrustedRootCertificate"],
    "SendNOC": ["addNOC"], "kFindOperationalForStayActive": ["findOperational", "caseSession"],
    "SendComplete": ["commissioningComplete"],
]

/// `sdk-report --sdk FILE --timing FILE --ready FILE [--ours FILE]`: for each stage of the SDK's
/// commissionings, the SDK's wall time beside the time our device spent handling the datagrams that
/// arrived during that stage (medians over the runs), and with `--ours` (from `lan-commission
/// --stages`) our commissioner's time for the same stage in the same run. Prints `sdktable` lines (a
/// Markdown table) and figures.
func sdkReport(_ options: Options) throws {
    let ours = try options.string("ours").flatMap { try readJSON($0) as? [String: Double] } ?? [:]
    func our(_ name: String) -> String {
        if name == "whole" { return ours["total"].map(fmt) ?? "" }
        guard let stages = ourStages[name] else { return "" }
        let values = stages.compactMap { ours[$0] }
        guard values.count == stages.count else { return "" }
        return fmt(values.reduce(0, +))
    }
    let runs = try SDKRun.load(try options.required("sdk"))
    let devices = try LANDevice.load(try options.required("ready"))
    guard let timing = (try readJSON(try options.required("timing")) as? [String: Any])?["devices"] as? [String: Any]
    else { throw BenchError.failed("no device timings") }
    let indexByDiscriminator = Dictionary(
        devices.map { (Int($0.discriminator), $0.index) }, uniquingKeysWith: { a, _ in a })
    guard !runs.isEmpty else {
        report("sdk: no successful commissioning by the SDK's controller")
        return
    }
    var order: [String] = []
    var wall: [String: Samples] = [:]
    var busy: [String: Samples] = [:]
    var messages: [String: Samples] = [:]
    var totalWall = Samples()
    var totalBusy = Samples()
    var totalMessages = Samples()
    for run in runs {
        guard let index = indexByDiscriminator[run.discriminator],
            let raw = timing[String(index)] as? [[Double]]
        else { continue }
        let samples = raw.compactMap { $0.count == 2 ? (received: $0[0], busy: $0[1]) : nil }
        func handled(_ from: Double, _ to: Double) -> (busy: Double, count: Int) {
            let inside = samples.filter { $0.received >= from && $0.received < to }
            return (inside.reduce(0) { $0 + $1.busy } * 1000, inside.count)
        }
        // Stages as the SDK logged them, plus the gaps between them (the SDK's own work between steps).
        var rows: [(String, Double, Double)] = []
        var cursor = run.start
        for stage in run.stages {
            if stage.start - cursor > 0.0005 { rows.append(("(between steps)", cursor, stage.start)) }
            rows.append((stage.name, stage.start, stage.end))
            cursor = max(cursor, stage.end)
        }
        if run.end - cursor > 0.0005 { rows.append(("(after the last step)", cursor, run.end)) }
        var gapWall: [String: Double] = [:]
        var gapBusy: [String: Double] = [:]
        var gapCount: [String: Int] = [:]
        for (name, from, to) in rows {
            let h = handled(from, to)
            if name.hasPrefix("(") {
                gapWall[name, default: 0] += (to - from) * 1000
                gapBusy[name, default: 0] += h.busy
                gapCount[name, default: 0] += h.count
                continue
            }
            if wall[name] == nil { order.append(name) }
            wall[name, default: Samples()].add((to - from) * 1000)
            busy[name, default: Samples()].add(h.busy)
            messages[name, default: Samples()].add(Double(h.count))
        }
        for (name, value) in gapWall {
            if wall[name] == nil { order.append(name) }
            wall[name, default: Samples()].add(value)
            busy[name, default: Samples()].add(gapBusy[name] ?? 0)
            messages[name, default: Samples()].add(Double(gapCount[name] ?? 0))
        }
        let whole = handled(run.start, run.end)
        totalWall.add((run.end - run.start) * 1000)
        totalBusy.add(whole.busy)
        totalMessages.add(Double(whole.count))
    }
    emit(
        "sdktable\t| stage (SDK's names) | SDK wall time, ms | our device handling, ms | datagrams to the device "
            + "| our commissioner, same stage, ms |")
    emit("sdktable\t|---|---:|---:|---:|---:|")
    for name in order {
        guard let w = wall[name], let b = busy[name], let m = messages[name] else { continue }
        emit("sdktable\t| \(name) | \(fmt(w.p(0.5))) | \(fmt(b.p(0.5))) | \(Int(m.p(0.5))) | \(our(name)) |")
    }
    let share = totalWall.p(0.5) > 0 ? totalBusy.p(0.5) / totalWall.p(0.5) * 100 : 0
    emit(
        "sdktable\t| **whole commissioning** | **\(fmt(totalWall.p(0.5)))** | **\(fmt(totalBusy.p(0.5)))** "
            + "(\(fmt(share)) %) | \(Int(totalMessages.p(0.5))) | \(our("whole")) |")
    report(
        "sdk: the SDK's controller commissioned our device \(totalWall.count) times: p50 \(fmt(totalWall.p(0.5))) ms, "
            + "p95 \(fmt(totalWall.p(0.95))) ms; our device handled its datagrams for \(fmt(totalBusy.p(0.5))) ms of it "
            + "(\(fmt(share)) %)")
    figure(
        "sdk-commissioning", "the SDK's Python controller commissions our device on the LAN (\(totalWall.count) runs)",
        median: totalWall.p(0.5), tail: totalWall.p(0.95), unit: "ms")
    figure(
        "sdk-device-share", "  of which our device handling its messages", median: totalBusy.p(0.5),
        tail: totalBusy.p(0.95), unit: "ms")
}
