import Dispatch
import MatterCore
import MatterCredentials
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterSecureChannel

@Suite("CASE over the in-memory network and real UDP")
struct CASETests {
    static let fabricID = FabricID(0x0000_0000_FAB0_0001)
    static let deviceNode = NodeID(0x0000_0000_0000_1234)
    static let controllerNode = NodeID(0x0000_0000_0001_B669)

    static func setUp(icac: Bool = false) async throws -> (CASEPair, CASECredentials, FabricAuthority) {
        let authority = try FabricAuthority.create(fabricID: fabricID, rcacID: 1, icacID: icac ? 2 : nil)
        let device = try TestFabric.credentials(authority, nodeID: deviceNode)
        let controller = try TestFabric.credentials(authority, nodeID: controllerNode, cats: [0x0001_0001])
        let network = InMemoryNetwork()
        let d = network.makeEndpoint(queue: DispatchQueue(label: "device"))
        let c = network.makeEndpoint(queue: DispatchQueue(label: "controller"))
        let pair = await CASEPair.make(responder: d, responderAddress: d.address, initiator: c, fabrics: [device])
        return (pair, controller, authority)
    }

    @Test(arguments: [false, true])
    func fullHandshakeBetweenTwoNodesOfOneFabric(icac: Bool) async throws {
        let (pair, controller, _) = try await Self.setUp(icac: icac)
        let result = try await pair.establish(controller, peerNodeID: Self.deviceNode)
        #expect(!result.resumed)
        #expect(result.peer.nodeID == Self.deviceNode)
        let mine = try #require(await pair.initiator.secureSession(result.session))
        let theirs = try #require(await pair.responder.secureSessionList.first)
        #expect(
            mine.kind
                == .case(fabricIndex: 1, localNodeID: Self.controllerNode, peerNodeID: Self.deviceNode, peerCATs: []))
        #expect(
            theirs.kind
                == .case(
                    fabricIndex: 1, localNodeID: Self.deviceNode, peerNodeID: Self.controllerNode,
                    peerCATs: [0x0001_0001]))
        #expect(mine.keys.encrypt == theirs.keys.decrypt && mine.keys.decrypt == theirs.keys.encrypt)
        #expect(mine.keys.attestationChallenge == theirs.keys.attestationChallenge)
        #expect(await pair.responder.unsecuredSessionCount == 0)
        #expect(await pair.initiator.unsecuredSessionCount == 0)
        await pair.stop()
    }

    @Test func secondSessionIsResumedWithoutCertificates() async throws {
        let (pair, controller, _) = try await Self.setUp()
        _ = try await pair.establish(controller, peerNodeID: Self.deviceNode)
        let again = try await pair.establish(controller, peerNodeID: Self.deviceNode)
        #expect(again.resumed)
        let sessions = await pair.responder.secureSessionList
        #expect(sessions.count == 2)
        let resumed = try #require(await pair.initiator.secureSession(again.session))
        let peer = try #require(sessions.first { $0.localSessionID == resumed.peerSessionID })
        #expect(resumed.keys.encrypt == peer.keys.decrypt)
        // And a third time, with the resumption ID the second round issued.
        #expect(try await pair.establish(controller, peerNodeID: Self.deviceNode).resumed)
        await pair.stop()
    }

    @Test func unknownResumptionIDFallsBackToTheFullHandshake() async throws {
        let (pair, controller, _) = try await Self.setUp()
        _ = try await pair.establish(controller, peerNodeID: Self.deviceNode)
        // The responder forgets its records (e.g. it restarted): Sigma2 instead of Sigma2_Resume.
        pair.caseResponder.resumption.removeFabric(1)
        let again = try await pair.establish(controller, peerNodeID: Self.deviceNode)
        #expect(!again.resumed)
        await pair.stop()
    }

    @Test func nodeOfAnotherFabricGetsNoSharedTrustRoots() async throws {
        let (pair, _, _) = try await Self.setUp()
        let stranger = try FabricAuthority.create(fabricID: FabricID(0x0000_0000_DEAD_0001), rcacID: 9)
        let credentials = try TestFabric.credentials(stranger, nodeID: Self.controllerNode)
        await #expect(throws: SecureChannelError.noSharedTrustRoots) {
            try await pair.establish(credentials, peerNodeID: Self.deviceNode)
        }
        #expect(await pair.responder.secureSessionList.isEmpty)
        #expect(await pair.initiator.secureSessionList.isEmpty)
        await pair.stop()
    }

    @Test func sameFabricIDButAnotherRootIsRejected() async throws {
        // An impostor CA issues for the same fabric ID: the destination ID (root key) does not match.
        let (pair, _, _) = try await Self.setUp()
        let impostor = try FabricAuthority.create(fabricID: Self.fabricID, rcacID: 1)
        let credentials = try TestFabric.credentials(impostor, nodeID: Self.controllerNode)
        await #expect(throws: SecureChannelError.noSharedTrustRoots) {
            try await pair.establish(credentials, peerNodeID: Self.deviceNode)
        }
        await pair.stop()
    }

    @Test func wrongPeerNodeIDFails() async throws {
        let (pair, controller, _) = try await Self.setUp()
        await #expect(throws: SecureChannelError.noSharedTrustRoots) {
            try await pair.establish(controller, peerNodeID: NodeID(0x9999))
        }
        await pair.stop()
    }

    @Test(arguments: ["127.0.0.1", "::1"])
    func overRealUDP(host: String) async throws {
        let authority = try FabricAuthority.create(fabricID: Self.fabricID, rcacID: 1)
        let device = try TestFabric.credentials(authority, nodeID: Self.deviceNode)
        let controller = try TestFabric.credentials(authority, nodeID: Self.controllerNode)
        let d = try UDPEndpoint(queue: DispatchQueue(label: "udp-device"))
        let c = try UDPEndpoint(queue: DispatchQueue(label: "udp-controller"))
        let pair = await CASEPair.make(
            responder: d, responderAddress: try #require(UDPAddress(host: host, port: d.port)),
            initiator: c, fabrics: [device])
        #expect(try await !pair.establish(controller, peerNodeID: Self.deviceNode).resumed)
        #expect(try await pair.establish(controller, peerNodeID: Self.deviceNode).resumed)
        await pair.stop()
    }
}
