// matter-dnssd-probe: publishes and browses Matter DNS-SD records through MatterDiscovery's Avahi
// backend, for scripts/test-network.sh. Output is line-oriented and flushed at once.
//
//   matter-dnssd-probe check
//   matter-dnssd-probe publish [--count N] [--instance NAME] [--discriminator D] [--vendor V] [--product P]
//       [--device-type T] [--cm N] [--name DN] [--port P] [--ph N] [--pi TEXT] [--sii MS] [--sai MS] [--sat MS]
//       [--tcp BITS] [--operational CFID-NODE] [--probe]
//       (--probe: Avahi services, probed; default raw records without probing), prints
//       "established KIND NAME after MS ms" per record (from its publish call), then "ready",
//       (raw records: then "conflict-checked NAME after MS ms" once its background probe passed),
//       then reads commands on stdin: "cm N", "sii MS" (a TXT-only change), "withdraw",
//       "withdraw-operational", "names", "quit"
//   matter-dnssd-probe browse commissionable [--long D | --short S | --vendor V | --device-type T | --cm-open |
//       --instance NAME] [--timeout S] [--limit N]
//   matter-dnssd-probe browse operational [--fabric CFID | --node CFID-NODE] [--timeout S] [--limit N]
//
// Exit status: 0 ok, 1 failure, 2 usage, 3 no Avahi daemon reachable.
import Dispatch
import MatterCore
import MatterDiscovery

#if canImport(Glibc)
    import Glibc
#endif

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return }
            let n = write(1, base + done, buffer.count - done)
            if n <= 0 { return }
            done += n
        }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    StandardError.write("matter-dnssd-probe: \(message)\n")
    exit(status)
}

func startAvahi(publishing: DNSSDPublishing = .rawRecords) async -> AvahiDNSSD {
    do {
        return try await AvahiDNSSD.start(label: "probe.dnssd", publishing: publishing)
    } catch {
        if case .daemonUnavailable = error { fail(error.description, status: 3) }
        fail(error.description, status: 1)
    }
}

/// Lines of standard input, read on a background thread.
func standardInputLines() -> AsyncStream<String> {
    AsyncStream { continuation in
        DispatchQueue.global().async {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
    }
}

func addressList(_ addresses: [DNSSDAddress]) -> String {
    addresses.isEmpty ? "-" : addresses.map(\.description).joined(separator: ",")
}

func describe(_ node: DiscoveredCommissionableNode) -> String {
    var line = "commissionable \(node.instanceName) host=\(node.hostName) port=\(node.port)"
    if let ad = node.advertisement {
        line += " D=\(ad.longDiscriminator) CM=\(ad.commissioningMode)"
        if let v = ad.vendorID { line += " VP=\(v.rawValue)" + (ad.productID.map { "+\($0.rawValue)" } ?? "") }
        if let t = ad.deviceType { line += " DT=\(t.rawValue)" }
    }
    return line + " addresses=\(addressList(node.addresses))"
}

func describe(_ node: DiscoveredOperationalNode) -> String {
    let p = node.advertisement.sessionParameters
    return "operational \(node.instanceName) host=\(node.hostName) port=\(node.port)"
        + " SII=\(p.idleInterval.map(String.init) ?? "-") SAI=\(p.activeInterval.map(String.init) ?? "-")"
        + " addresses=\(addressList(node.addresses))"
}

func runPublish(_ options: ProbeOptions) async throws {
    let count: Int = try options.number("--count") ?? 1
    guard count >= 0, count <= 10_000 else { throw ProbeError("--count must be 0...10000") }
    if options.has("--instance") && count != 1 { throw ProbeError("--instance needs --count 1") }
    let base: UInt16 = try options.number("--discriminator") ?? 3840
    let cm: UInt8 = try options.number("--cm") ?? 1
    var template = CommissionableAdvertisement(
        longDiscriminator: base, commissioningMode: CommissioningMode(rawValue: cm))
    template.port = try options.number("--port") ?? MatterDNSSD.defaultPort
    template.vendorID = try options.number("--vendor").map(VendorID.init)
    template.productID = try options.number("--product").map(ProductID.init)
    template.deviceType = try options.number("--device-type").map(DeviceTypeID.init)
    template.deviceName = options.string("--name")
    template.pairingHint = try options.number("--ph").map(PairingHint.init)
    template.pairingInstruction = options.string("--pi")
    template.sessionParameters = MRPAdvertisement(
        idleInterval: try options.number("--sii") ?? 500, activeInterval: try options.number("--sai") ?? 300,
        activeThreshold: try options.number("--sat") ?? 4000)
    template.tcpSupport = TCPSupport(rawValue: try options.number("--tcp") ?? 0)

    let dnssd = await startAvahi(publishing: options.has("--probe") ? .probedServices : .rawRecords)
    let clock = ContinuousClock()
    let started = clock.now
    var commissionable: [(DNSSDPublicationID, CommissionableAdvertisement)] = []
    for i in 0..<count {
        var ad = template
        ad.instanceName = options.string("--instance") ?? MatterInstanceName.randomCommissionable()
        ad.longDiscriminator = UInt16(truncatingIfNeeded: Int(base) + i) & MatterDNSSD.maxLongDiscriminator
        commissionable.append((try await dnssd.publish(ad), ad))
    }
    var operational: DNSSDPublicationID?
    if let (cfid, node) = try options.operationalIDs("--operational") {
        let ad = OperationalAdvertisement(
            compressedFabricID: cfid, nodeID: node, port: template.port, sessionParameters: template.sessionParameters,
            tcpSupport: template.tcpSupport)
        operational = try await dnssd.publish(ad)
    }
    func elapsed() -> String {
        let d = clock.now - started
        return "after \(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000) ms"
    }
    for (id, _) in commissionable {
        let name = try await dnssd.waitUntilEstablished(id, timeout: .seconds(30))
        say("established commissionable \(name) \(elapsed())")
    }
    if let operational {
        let name = try await dnssd.waitUntilEstablished(operational, timeout: .seconds(30))
        say("established operational \(name) \(elapsed())")
    }
    if !options.has("--probe") {
        // Raw records: the background probe of each name ends after the records were established.
        var waiting = commissionable.map(\.0) + (operational.map { [$0] } ?? [])
        for _ in 0..<1500 where !waiting.isEmpty {
            for id in waiting where await dnssd.isConflictChecked(id) {
                say("conflict-checked \(await dnssd.instanceName(of: id) ?? "-") \(elapsed())")
            }
            var still: [DNSSDPublicationID] = []
            for id in waiting where !(await dnssd.isConflictChecked(id)) { still.append(id) }
            waiting = still
            if !waiting.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
    }
    say("ready")

    for await line in standardInputLines() {
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "cm":
            guard words.count == 2, let value = UInt8(words[1]) else {
                say("error: usage: cm N")
                continue
            }
            for index in commissionable.indices {
                commissionable[index].1.commissioningMode = CommissioningMode(rawValue: value)
                try await dnssd.update(commissionable[index].0, to: commissionable[index].1)
            }
            for (id, _) in commissionable {
                _ = try await dnssd.waitUntilEstablished(id, timeout: .seconds(30))
            }
            say("updated cm \(value)")
        case "sii":
            guard words.count == 2, let value = UInt32(words[1]) else {
                say("error: usage: sii MS")
                continue
            }
            for index in commissionable.indices {
                commissionable[index].1.sessionParameters.idleInterval = value
                try await dnssd.update(commissionable[index].0, to: commissionable[index].1)
            }
            say("updated sii \(value)")
        case "withdraw":
            for (id, _) in commissionable { await dnssd.withdraw(id) }
            commissionable.removeAll()
            say("withdrawn")
        case "withdraw-operational":
            if let operational { await dnssd.withdraw(operational) }
            operational = nil
            say("withdrawn operational")
        case "names":
            for (id, _) in commissionable { say("name \(await dnssd.instanceName(of: id) ?? "-")") }
            say("names done")
        case "quit":
            await dnssd.stop()
            say("bye")
            return
        case nil:
            continue
        default:
            say("error: unknown command \(line)")
        }
    }
    await dnssd.stop()
}

func runBrowse(_ kind: String, _ options: ProbeOptions) async throws {
    let timeout = try options.seconds("--timeout", default: 5)
    let limit: Int? = try options.number("--limit")
    let dnssd = await startAvahi()
    defer { Task { await dnssd.stop() } }
    switch kind {
    case "commissionable":
        var filter = CommissionableFilter.any
        if let d: UInt16 = try options.number("--long") { filter = .longDiscriminator(d) }
        if let s: UInt8 = try options.number("--short") { filter = .shortDiscriminator(s) }
        if let v: UInt16 = try options.number("--vendor") { filter = .vendor(VendorID(v)) }
        if let t: UInt32 = try options.number("--device-type") { filter = .deviceType(DeviceTypeID(t)) }
        if options.has("--cm-open") { filter = .commissioningMode }
        if let name = options.string("--instance") { filter = .instanceName(name) }
        let nodes = try await dnssd.discoverCommissionable(filter, timeout: timeout, limit: limit)
        for node in nodes { say(describe(node)) }
        say("found \(nodes.count)")
    case "operational":
        var filter = OperationalFilter.any
        if let cfid: UInt64 = try options.number("--fabric") { filter = .compressedFabricID(cfid) }
        if let (cfid, node) = try options.operationalIDs("--node") {
            filter = .node(compressedFabricID: cfid, nodeID: node)
        }
        let nodes = try await dnssd.discoverOperational(filter, timeout: timeout, limit: limit)
        for node in nodes { say(describe(node)) }
        say("found \(nodes.count)")
    default:
        throw ProbeError("browse what? commissionable or operational")
    }
    await dnssd.stop()
}

let arguments = CommandLine.arguments.dropFirst()
let publishOptions: Set<String> = [
    "--count", "--instance", "--discriminator", "--vendor", "--product", "--device-type", "--cm", "--name", "--port",
    "--ph", "--pi", "--sii", "--sai", "--sat", "--tcp", "--operational", "--probe",
]
let browseOptions: Set<String> = [
    "--long", "--short", "--vendor", "--device-type", "--cm-open", "--instance", "--fabric", "--node", "--timeout",
    "--limit",
]
do {
    switch arguments.first {
    case "check":
        let dnssd = await startAvahi()
        await dnssd.stop()
        say("avahi: reachable")
    case "publish":
        try await runPublish(try ProbeOptions(arguments.dropFirst(), allowed: publishOptions))
    case "browse":
        let options = try ProbeOptions(arguments.dropFirst(2), allowed: browseOptions)
        try await runBrowse(arguments.dropFirst().first ?? "", options)
    default:
        fail(
            "usage: matter-dnssd-probe check | publish [options] | browse commissionable|operational [options]",
            status: 2)
    }
} catch let error as ProbeError {
    fail(error.description, status: 2)
} catch {
    fail("\(error)", status: 1)
}
