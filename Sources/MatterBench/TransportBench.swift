import Dispatch
import MatterCore
import MatterCrypto
import MatterSecureChannel
import MatterTransport

/// Echoes each request on the responder's queue.
final class Echo: UnsolicitedMessageHandler {
    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        try? exchange.send(opcode: message.opcode, payload: message.payload)
        exchange.close()
    }
}

/// Two nodes on loopback UDP with a secure session (random keys, as after PASE).
func securePair(host: String) async throws -> (TransportNode, TransportNode, SessionID) {
    let a = try UDPEndpoint(queue: DispatchQueue(label: "bench-a"))
    let b = try UDPEndpoint(queue: DispatchQueue(label: "bench-b"))
    let client = TransportNode(transport: a)
    let server = TransportNode(transport: b)
    await client.start()
    await server.start()
    await server.setUnsolicitedHandler(Echo(), for: .echo)
    let i2r = try SecureRandom.bytes(count: 16)
    let r2i = try SecureRandom.bytes(count: 16)
    let ac = try SecureRandom.bytes(count: 16)
    let aID = await client.allocateSessionID()
    let bID = await server.allocateSessionID()
    guard let serverAddress = UDPAddress(host: host, port: b.port),
        let clientAddress = UDPAddress(host: host, port: a.port)
    else { throw BenchError.badAddress(host) }
    let session = await client.addSecureSession(
        SecureSessionParameters(
            kind: .pase, localSessionID: aID, peerSessionID: bID,
            keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: ac, isInitiator: true),
            peerAddress: serverAddress, peerMRP: .default, isInitiator: true))
    await server.addSecureSession(
        SecureSessionParameters(
            kind: .pase, localSessionID: bID, peerSessionID: aID,
            keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: ac, isInitiator: false),
            peerAddress: clientAddress, peerMRP: .default, isInitiator: false))
    return (client, server, session)
}

func roundTrip(node: isolated TransportNode, session: SessionID, payload: [UInt8]) async throws {
    let exchange = try node.openExchange(on: session, protocolID: .echo)
    defer { exchange.close() }
    _ = try await exchange.request(opcode: 1, payload: payload, timeout: 5_000)
}

/// Encrypted request/response round trips over loopback: latency one at a time, then throughput
/// with `outstanding` requests in flight.
func transportBench(host: String, count: Int) async throws {
    let (client, server, session) = try await securePair(host: host)
    let payload = [UInt8](repeating: 0x5A, count: 64)
    let clock = ContinuousClock()
    for _ in 0..<200 { try await roundTrip(node: client, session: session, payload: payload) }  // warm-up
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = clock.now
        try await roundTrip(node: client, session: session, payload: payload)
        samples.append(milliseconds(clock.now - start))
    }
    samples.sort()
    let family = host.contains(":") ? "ipv6" : "ipv4"
    report(
        "transport \(host): round trip p50 \(fmt(percentile(samples, 0.5))) ms, p99 \(fmt(percentile(samples, 0.99))) ms"
            + " (\(count) sequential, 64-byte payload, AES-CCM both ways)")
    figure(
        "transport-rt-\(family)", "transport round trip \(host) (encrypted echo, no IM)",
        median: percentile(samples, 0.5), tail: percentile(samples, 0.99), tailName: "p99", unit: "ms")
    for outstanding in [1, 8, 64] {
        let total = count
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<outstanding {
                group.addTask {
                    var i = worker
                    while i < total {
                        try await roundTrip(node: client, session: session, payload: payload)
                        i += outstanding
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = milliseconds(clock.now - start) / 1000
        let rate = Double(total) / seconds
        report("transport \(host): \(outstanding) outstanding: \(Int(rate)) round trips/s")
        figure(
            "transport-rate-\(outstanding)-\(family)", "transport round trips/s \(host), \(outstanding) outstanding",
            median: rate.rounded(), unit: "/s")
    }
    let stats = await server.statistics
    report("transport \(host): server \(stats)")
    await client.stop()
    await server.stop()
}

/// Full PASE handshakes over loopback at `iterations` PBKDF2 iterations.
func paseBench(count: Int, iterations: UInt32) async throws {
    let device = try UDPEndpoint(queue: DispatchQueue(label: "bench-device"))
    let commissioner = try UDPEndpoint(queue: DispatchQueue(label: "bench-commissioner"))
    let deviceNode = TransportNode(transport: device)
    let commissionerNode = TransportNode(transport: commissioner)
    await deviceNode.start()
    await commissionerNode.start()
    let salt = Array("SPAKE2P Key Salt".utf8)
    let verifier = try Spake2PlusPasscodeVerifier(passcode: 20_202_021, salt: salt, iterations: Int(iterations))
    let responder = PASEResponder(
        credentials: .init(verifier: verifier, pbkdf: PBKDFParameters(iterations: iterations, salt: salt)))
    await SecureChannelResponder(pase: responder).install(on: deviceNode)
    guard let address = UDPAddress(host: "::1", port: device.port) else { return }
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<count {
        let start = clock.now
        let result = try await PASEInitiator.establish(node: commissionerNode, peer: address, passcode: 20_202_021)
        samples.append(milliseconds(clock.now - start))
        await commissionerNode.removeSecureSession(result.session)
    }
    samples.sort()
    report(
        "pase ::1 (\(iterations) iterations): p50 \(fmt(percentile(samples, 0.5))) ms, p95 \(fmt(percentile(samples, 0.95))) ms"
            + " over \(count) handshakes")
    figure(
        "pase", "PASE ::1, \(iterations) PBKDF2 iterations (\(count) handshakes)", median: percentile(samples, 0.5),
        tail: percentile(samples, 0.95), unit: "ms")
    await deviceNode.stop()
    await commissionerNode.stop()
}
