import MatterCore
import MatterCredentials
import MatterCrypto
import Testing

@testable import MatterSecureChannel
@testable import MatterTransport

/// The responder's check of Sigma3 (spec 4.14.2.4), without a node: the handshake state after Sigma2,
/// and a Sigma3 built here the way an initiator builds it.
@Suite("CASE Sigma3 verification")
struct CASESigma3Tests {
    /// The two ends of one handshake after Sigma2, on one fabric.
    struct Handshake {
        let authority: FabricAuthority
        let responderFabric: CASECredentials
        let initiatorFabric: CASECredentials
        let initiatorEphemeral: P256PrivateKey
        let responderEphemeral: P256PrivateKey
        let shared: [UInt8]
        let ipk: [UInt8]
        let transcript: [UInt8]
        let state: CASEResponder.FullHandshake
        let peerAddress: UDPAddress

        init() throws {
            peerAddress = try #require(UDPAddress(host: "fe80::2", port: 5540))
            authority = try FabricAuthority.create(fabricID: FabricID(0x0000_0000_0000_0C03), rcacID: 3)
            responderFabric = try TestFabric.credentials(authority, nodeID: NodeID(0x33))
            initiatorFabric = try TestFabric.credentials(authority, nodeID: NodeID(0x1_2233), cats: [0x0001_0001])
            initiatorEphemeral = try P256PrivateKey()
            responderEphemeral = try P256PrivateKey()
            shared = try responderEphemeral.sharedSecret(with: initiatorEphemeral.publicKey)
            ipk = try responderFabric.operationalIPK(epochKey: TestFabric.epochKey)
            // Sigma1 and Sigma2 as the responder saw them; their bytes only feed the key schedule.
            transcript = Array("sigma1 bytes, then sigma2 bytes".utf8)
            state = CASEResponder.FullHandshake(
                responder: CASEResponder(credentials: StaticCredentials([responderFabric])),
                fabric: responderFabric, ipk: ipk, shared: shared, transcript: transcript, localSessionID: 7,
                peerSessionID: 9, peerMRP: .default, ownEphemeralKey: responderEphemeral.publicKey.x963Representation,
                peerEphemeralKey: initiatorEphemeral.publicKey.x963Representation,
                resumptionID: Array(repeating: 1, count: 16))
        }

        /// Sigma3 from `fabric` (the initiator's by default), signed over `signed` ephemeral keys
        /// (sender's, then receiver's) and encrypted under `transcript`.
        func sigma3(
            from fabric: CASECredentials? = nil, signed: (sender: [UInt8], receiver: [UInt8])? = nil,
            transcript: [UInt8]? = nil
        ) throws -> [UInt8] {
            let fabric = fabric ?? initiatorFabric
            let chain = SigmaSignedData(noc: fabric.noc, icac: fabric.icac)
            let keys =
                signed
                ?? (initiatorEphemeral.publicKey.x963Representation, responderEphemeral.publicKey.x963Representation)
            let tbs = chain.toBeSigned(senderEphemeralKey: keys.sender, receiverEphemeralKey: keys.receiver)
            let signature = try fabric.operationalKey.signature(for: tbs).rawRepresentation
            let s3k = try CASECrypto.sigma3Key(shared: shared, ipk: ipk, transcript: transcript ?? self.transcript)
            return Sigma3(
                encrypted: try CASECrypto.encrypt(
                    chain.toBeEncrypted(signature: signature, resumptionID: nil), key: s3k,
                    nonce: CASEKeySchedule.sigma3Nonce)
            ).encoded()
        }

        func verify(_ payload: [UInt8], opcode: UInt8 = SecureChannelOpcode.sigma3) throws(SecureChannelError) -> (
            peer: OperationalIdentity, keys: SessionKeys
        ) {
            try state.verify(
                ReceivedMessage(
                    session: .unsecured(peer: peerAddress, ephemeralNodeID: NodeID(0xEE)), protocolID: .secureChannel,
                    opcode: opcode, exchangeID: 1, payload: payload, peerAddress: peerAddress, messageCounter: 3,
                    sourceNodeID: NodeID(0xEE)))
        }
    }

    @Test("a Sigma3 from a node of the fabric gives its identity and the keys the initiator derives")
    func valid() throws {
        let handshake = try Handshake()
        let sigma3 = try handshake.sigma3()
        let (peer, keys) = try handshake.verify(sigma3)
        #expect(peer.nodeID == NodeID(0x1_2233))
        #expect(peer.caseAuthenticatedTags.map(\.rawValue) == [0x0001_0001])
        let initiator = try SessionKeyDerivation.keys(
            secret: handshake.shared,
            salt: try CASECrypto.sessionSalt(ipk: handshake.ipk, transcript: handshake.transcript + sigma3),
            info: SessionKeyDerivation.sessionKeysInfo, isInitiator: true)
        #expect(keys.decrypt == initiator.encrypt && keys.encrypt == initiator.decrypt)
        #expect(keys.attestationChallenge == initiator.attestationChallenge)
        #expect(keys.encrypt != keys.decrypt)
    }

    @Test("a Sigma3 encrypted under another transcript does not decrypt")
    func otherTranscript() throws {
        let handshake = try Handshake()
        let error = #expect(throws: SecureChannelError.self) {
            try handshake.verify(try handshake.sigma3(transcript: Array("another sigma2".utf8)))
        }
        #expect(error.map { "\($0)" }?.contains("does not decrypt") == true)
    }

    @Test("a signature over the ephemeral keys in the wrong order, or over another key, is refused")
    func wrongSignedKeys() throws {
        let handshake = try Handshake()
        let initiatorKey = handshake.initiatorEphemeral.publicKey.x963Representation
        let responderKey = handshake.responderEphemeral.publicKey.x963Representation
        let stranger = try P256PrivateKey().publicKey.x963Representation
        for signed in [(responderKey, initiatorKey), (stranger, responderKey), (initiatorKey, stranger)] {
            #expect(throws: SecureChannelError.self) {
                try handshake.verify(try handshake.sigma3(signed: signed))
            }
        }
    }

    @Test("a NOC from another root is refused even when the message decrypts")
    func otherRoot() throws {
        let handshake = try Handshake()
        let other = try FabricAuthority.create(fabricID: handshake.authority.fabricID, rcacID: 4)
        let outsider = try TestFabric.credentials(other, nodeID: NodeID(0x1_2233))
        let error = #expect(throws: SecureChannelError.self) {
            try handshake.verify(try handshake.sigma3(from: outsider))
        }
        guard case .invalidCredentials? = error else {
            Issue.record("expected invalidCredentials, got \(String(describing: error))")
            return
        }
    }

    @Test("a failure StatusReport is the peer's failure; another opcode or a truncated Sigma3 is invalid")
    func notSigma3() throws {
        let handshake = try Handshake()
        let report = StatusReport(generalCode: .failure, protocolCode: StatusReport.SecureChannelCode.invalidParameter)
        let reported = #expect(throws: SecureChannelError.self) {
            try handshake.verify(report.encoded, opcode: SecureChannelOpcode.statusReport)
        }
        guard case .peerReportedFailure(let got)? = reported else {
            Issue.record("expected peerReportedFailure, got \(String(describing: reported))")
            return
        }
        #expect(got.protocolCode == StatusReport.SecureChannelCode.invalidParameter)
        let sigma3 = try handshake.sigma3()
        for (payload, opcode) in [
            (sigma3, SecureChannelOpcode.sigma2), (Array(sigma3.prefix(20)), SecureChannelOpcode.sigma3),
        ] {
            let error = #expect(throws: SecureChannelError.self) { try handshake.verify(payload, opcode: opcode) }
            guard case .invalidMessage? = error else {
                Issue.record("expected invalidMessage, got \(String(describing: error))")
                continue
            }
        }
    }
}
