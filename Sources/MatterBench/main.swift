// matter-emu-bench: measurements behind docs/BENCHMARKS.md (run through scripts/bench.sh, release
// build). Not a test: it asserts nothing, it prints figures.
import Dispatch
import MatterCore
import MatterCrypto
import MatterSecureChannel
import MatterTransport

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Echoes each request on the responder's queue.
final class Echo: UnsolicitedMessageHandler, @unchecked Sendable {
    // @unchecked: stateless.
    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange) {
        try? exchange.send(opcode: message.opcode, payload: message.payload)
        exchange.close()
    }
}

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
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
    let i2r = try SecureRandom.bytes(count: 16), r2i = try SecureRandom.bytes(count: 16)
    let ac = try SecureRandom.bytes(count: 16)
    let aID = await client.allocateSessionID(), bID = await server.allocateSessionID()
    guard let serverAddress = UDPAddress(host: host, port: b.port), let clientAddress = UDPAddress(host: host, port: a.port)
    else { throw BenchError.badAddress(host) }
    let session = await client.addSecureSession(SecureSessionParameters(
        kind: .pase, localSessionID: aID, peerSessionID: bID,
        keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: ac, isInitiator: true),
        peerAddress: serverAddress, peerMRP: .default, isInitiator: true))
    await server.addSecureSession(SecureSessionParameters(
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
    print("transport \(host): round trip p50 \(fmt(percentile(samples, 0.5))) ms, p99 \(fmt(percentile(samples, 0.99))) ms"
          + " (\(count) sequential, 64-byte payload, AES-CCM both ways)")
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
        print("transport \(host): \(outstanding) outstanding: \(Int(Double(total) / seconds)) round trips/s")
    }
    let stats = await server.statistics
    print("transport \(host): server \(stats)")
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
    let responder = PASEResponder(credentials: .init(verifier: verifier, pbkdf: PBKDFParameters(iterations: iterations, salt: salt)))
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
    print("pase ::1 (\(iterations) iterations): p50 \(fmt(percentile(samples, 0.5))) ms, p95 \(fmt(percentile(samples, 0.95))) ms"
          + " over \(count) handshakes")
    await deviceNode.stop()
    await commissionerNode.stop()
}

enum BenchError: Error {
    case badAddress(String)
}

func fmt(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return String(scaled)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let what = arguments.first ?? "all"
let count = arguments.count > 1 ? Int(arguments[1]) ?? 2000 : 2000
do {
    if what == "transport" || what == "all" {
        try await transportBench(host: "::1", count: count)
        try await transportBench(host: "127.0.0.1", count: count)
    }
    if what == "pase" || what == "all" { try await paseBench(count: max(10, count / 100), iterations: 1000) }
    if what == "commissioning" || what == "all" { try await commissioningBench(count: 20) }
    if what == "case" || what == "all" { try await caseBench(count: 30) }
    if what == "fleet" || what == "all" { try await fleetBench(sizes: [10, 100, 1000]) }
} catch {
    StandardError.write("matter-emu-bench: \(error)\n")
    exit(1)
}
