import Dispatch
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterTestSupport
import MatterTransport

@testable import MatterSecureChannel

/// A fixed list of fabrics, as a device's fabric table would give them.
final class StaticCredentials: CASECredentialsProvider, @unchecked Sendable {
    // @unchecked: immutable after init.
    let fabrics: [CASECredentials]
    init(_ fabrics: [CASECredentials]) { self.fabrics = fabrics }
    func caseCredentials() -> [CASECredentials] { fabrics }
}

enum TestFabric {
    static let epochKey = Array("temporary ipk 01".utf8)

    /// Credentials for `nodeID` on a fabric issued by `authority`.
    static func credentials(_ authority: FabricAuthority, nodeID: NodeID, fabricIndex: UInt8 = 1, cats: [UInt32] = [])
        throws -> CASECredentials
    {
        let key = try P256PrivateKey()
        let noc = try authority.issueNOC(
            publicKey: key.publicKey, nodeID: nodeID,
            caseAuthenticatedTags: cats.map { CASEAuthenticatedTag(rawValue: $0) })
        return CASECredentials(
            fabricIndex: fabricIndex, fabricID: authority.fabricID, nodeID: nodeID,
            rcac: authority.rootCertificate.tlvEncoded, rootPublicKey: authority.rootCertificate.publicKey,
            icac: authority.intermediateCertificate?.tlvEncoded, noc: noc.tlvEncoded, operationalKey: key,
            ipkEpochKeys: [epochKey])
    }
}

/// A responder node (CASE) and an initiator node on one network.
struct CASEPair {
    let provider: StaticCredentials
    let responder: TransportNode
    let initiator: TransportNode
    let responderAddress: UDPAddress
    let caseResponder: CASEResponder
    let initiatorResumption = CASEResumptionStore()
    let events = PASEEvents()

    static func make(
        responder: any DatagramTransport, responderAddress: UDPAddress, initiator: any DatagramTransport,
        fabrics: [CASECredentials]
    ) async -> CASEPair {
        let responderNode = TransportNode(transport: responder)
        let initiatorNode = TransportNode(transport: initiator)
        await responderNode.start()
        await initiatorNode.start()
        let provider = StaticCredentials(fabrics)
        let caseResponder = CASEResponder(credentials: provider)
        let pair = CASEPair(
            provider: provider, responder: responderNode, initiator: initiatorNode, responderAddress: responderAddress,
            caseResponder: caseResponder)
        let events = pair.events
        await responderNode.run { _ in
            caseResponder.onEstablished = { _, peer in events.record("established \(peer.nodeID)") }
            caseResponder.onFailure = { error in events.record("failed \(error)") }
        }
        await SecureChannelResponder(pase: nil, case: caseResponder).install(on: responderNode)
        return pair
    }

    func establish(_ credentials: CASECredentials, peerNodeID: NodeID, resume: Bool = true, timeout: UInt64 = 5_000)
        async throws(SecureChannelError) -> CASEInitiator.Result
    {
        try await CASEInitiator.establish(
            node: initiator, peer: responderAddress, peerNodeID: peerNodeID,
            credentials: credentials, resumption: resume ? initiatorResumption : nil,
            timeout: timeout)
    }

    func stop() async {
        await responder.stop()
        await initiator.stop()
    }
}
