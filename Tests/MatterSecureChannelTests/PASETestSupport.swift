import Dispatch
import MatterCore
import MatterCrypto
import MatterTestSupport
import MatterTransport
import Synchronization

@testable import MatterSecureChannel

/// A device node (PASE responder) and a commissioner node on one network.
struct PASEPair {
    let device: TransportNode
    let commissioner: TransportNode
    let responder: PASEResponder
    let deviceAddress: UDPAddress
    let events: PASEEvents

    static let salt = Array("SPAKE2P Key Salt".utf8)

    static func make(
        device: any DatagramTransport, deviceAddress: UDPAddress, commissioner: any DatagramTransport,
        passcode: UInt32 = 20_202_021, iterations: UInt32 = 1000
    ) async throws -> PASEPair {
        let deviceNode = TransportNode(transport: device)
        let commissionerNode = TransportNode(transport: commissioner)
        await deviceNode.start()
        await commissionerNode.start()
        let verifier = try Spake2PlusPasscodeVerifier(passcode: passcode, salt: salt, iterations: Int(iterations))
        let responder = PASEResponder(
            credentials: .init(
                verifier: verifier,
                pbkdf: PBKDFParameters(iterations: iterations, salt: salt)))
        let events = PASEEvents()
        await deviceNode.run { _ in
            responder.onEstablished = { session, _ in events.record("established \(session)") }
            responder.onFailure = { error in events.record("failed \(error)") }
            responder.onWindowClosedByFailures = { events.record("window closed") }
        }
        await SecureChannelResponder(pase: responder).install(on: deviceNode)
        return PASEPair(
            device: deviceNode, commissioner: commissionerNode, responder: responder,
            deviceAddress: deviceAddress, events: events)
    }

    func establish(passcode: UInt32 = 20_202_021, pbkdf: PBKDFParameters? = nil, timeout: UInt64 = 5_000)
        async throws(SecureChannelError) -> PASEInitiator.Result
    {
        try await PASEInitiator.establish(
            node: commissioner, peer: deviceAddress, passcode: passcode, pbkdf: pbkdf,
            timeout: timeout)
    }

    func stop() async {
        await device.stop()
        await commissioner.stop()
    }
}

/// What the device side reported, in order.
final class PASEEvents: Sendable {
    private let lines = Mutex<[String]>([])
    func record(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

extension TransportNode {
    /// Runs `body` in the node's isolation (tests).
    func run<T: Sendable>(_ body: @Sendable (isolated TransportNode) -> T) -> T { body(self) }
}

/// Sends a PBKDFParamRequest from `node` to the device and nothing more: a handshake left hanging.
func stallHandshake(from node: TransportNode, to device: UDPAddress) async throws {
    let stalled = await node.openUnsecuredSession(to: device)
    let request = PBKDFParamRequest(
        initiatorRandom: [UInt8](repeating: 7, count: 32), initiatorSessionID: 77,
        hasPBKDFParameters: false, sessionParameters: nil)
    _ = try await node.run { node in
        Result { () throws(TransportError) in
            let exchange = try node.openExchange(on: stalled, protocolID: .secureChannel)
            try exchange.send(opcode: SecureChannelOpcode.pbkdfParamRequest, payload: request.encoded())
        }
    }.get()
}
