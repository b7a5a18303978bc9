package import MatterCore
package import MatterCredentials
import MatterCrypto
package import MatterTransport

/// The responder side of CASE (spec 4.14.2): a node reached on one of its fabrics. Answers Sigma1
/// with Sigma2 (or Sigma2_Resume), checks Sigma3, and installs the session. Owned by the node's
/// secure-channel responder and run in the node's isolation.
package final class CASEResponder: @unchecked Sendable {
    // @unchecked: captured by its exchange's callbacks, which the node calls on its queue; the compiler
    // cannot tie a callback's isolated node to the node that set it.
    /// Where the fabrics come from (held weakly: the provider usually owns this responder).
    package weak var credentials: (any CASECredentialsProvider)?
    package let resumption: CASEResumptionStore
    package var localMRP: MRPParameters
    /// The commands one InvokeRequest may carry, advertised in the session parameters (BasicInformation
    /// MaxPathsPerInvoke).
    package var maxPathsPerInvoke: UInt16 = 1
    /// Time certificates are checked against.
    package var validationTime: @Sendable () -> CertificateValidationTime = { .now }
    /// A CASE session was established: its ID and the peer's identity.
    package var onEstablished: ((SessionID, CASEPeer) -> Void)?
    package var onFailure: ((SecureChannelError) -> Void)?
    /// What was asked and how it ended.
    package private(set) var statistics = CASEStatistics()
    private let log = Logger(label: "case")

    package init(
        credentials: (any CASECredentialsProvider)?, resumption: CASEResumptionStore = CASEResumptionStore(),
        localMRP: MRPParameters = .default
    ) {
        self.credentials = credentials
        self.resumption = resumption
        self.localMRP = localMRP
    }

    func begin(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        statistics.requests += 1
        let admission = CASEAdmission.decide(
            payload: message.payload, unsecured: exchange.session.isUnsecured,
            fabrics: credentials?.caseCredentials() ?? [],
            resumptionRecord: { resumption.record(resumptionID: $0) })
        let peerMRP = admission.sigma1?.sessionParameters?.mrp ?? .default
        if admission.sigma1 != nil { node.setPeerMRP(peerMRP, for: exchange.session) }
        switch admission {
        case .droppedOnEncryptedSession:
            statistics.invalidRequests += 1
            exchange.close()
        case .invalid(let error):
            statistics.invalidRequests += 1
            fail(
                error, exchange: exchange, node: node, status: StatusReport.SecureChannelCode.invalidParameter,
                refusal: true)
        case .noSharedTrustRoots:
            log.info("Sigma1 for a destination that matches none of our fabrics")
            statistics.noSharedTrustRoots += 1
            fail(
                .noSharedTrustRoots, exchange: exchange, node: node,
                status: StatusReport.SecureChannelCode.noSharedTrustRoots, refusal: true)
        case .resume(let sigma1, let record, let fabric):
            resume(
                sigma1, record: record, fabric: fabric, message: message, exchange: exchange, peerMRP: peerMRP,
                node: node)
        case .full(let sigma1, let fabric, let ipk):
            answer(sigma1, fabric: fabric, ipk: ipk, message: message, exchange: exchange, peerMRP: peerMRP, node: node)
        }
    }

    /// The full handshake: answers with Sigma2 and waits for Sigma3.
    private func answer(
        _ sigma1: Sigma1, fabric: CASECredentials, ipk: [UInt8], message: ReceivedMessage, exchange: Exchange,
        peerMRP: MRPParameters, node: isolated TransportNode
    ) {
        let localSessionID = node.allocateSessionID()
        do {
            let ephemeral = try P256PrivateKey()
            let peerEphemeral = try P256PublicKey(x963Representation: sigma1.initiatorEphemeralPublicKey)
            let shared = try ephemeral.sharedSecret(with: peerEphemeral)
            let responderRandom = try SecureRandom.bytes(count: 32)
            let newResumptionID = try SecureRandom.bytes(count: 16)
            let ephemeralKey = ephemeral.publicKey.x963Representation
            let chain = SigmaSignedData(noc: fabric.noc, icac: fabric.icac)
            let tbs = chain.toBeSigned(
                senderEphemeralKey: ephemeralKey,
                receiverEphemeralKey: sigma1.initiatorEphemeralPublicKey)
            let signature = try fabric.operationalKey.signature(for: tbs).rawRepresentation
            let s2k = try CASECrypto.sigma2Key(
                shared: shared, ipk: ipk, responderRandom: responderRandom,
                responderEphemeralKey: ephemeralKey, sigma1: message.payload)
            let encrypted = try CASECrypto.encrypt(
                chain.toBeEncrypted(signature: signature, resumptionID: newResumptionID),
                key: s2k, nonce: CASEKeySchedule.sigma2Nonce)
            let sigma2 = Sigma2(
                responderRandom: responderRandom, responderSessionID: localSessionID,
                responderEphemeralPublicKey: ephemeralKey, encrypted: encrypted,
                sessionParameters: .local(localMRP, maxPathsPerInvoke: maxPathsPerInvoke)
            ).encoded()
            try exchange.send(opcode: SecureChannelOpcode.sigma2, payload: sigma2)
            let state = FullHandshake(
                responder: self, fabric: fabric, ipk: ipk, shared: shared, transcript: message.payload + sigma2,
                localSessionID: localSessionID, peerSessionID: sigma1.initiatorSessionID, peerMRP: peerMRP,
                ownEphemeralKey: ephemeralKey, peerEphemeralKey: sigma1.initiatorEphemeralPublicKey,
                resumptionID: newResumptionID)
            exchange.onMessage = { node, message, exchange in state.receive(message, on: exchange, node: node) }
            exchange.onFailure = { node, error, exchange in
                node.releaseSessionID(localSessionID)
                state.responder.statistics.failed += 1
                state.responder.fail(.transport(error), exchange: exchange, node: node, status: nil)
            }
        } catch {
            node.releaseSessionID(localSessionID)
            statistics.invalidRequests += 1
            fail(
                .crypto(error as? CryptoError ?? .invalidState("\(error)")), exchange: exchange, node: node,
                status: StatusReport.SecureChannelCode.invalidParameter)
        }
    }

    /// A resumption that checked out (the record is the one Sigma1's resumption ID names): answers
    /// Sigma2_Resume and waits for the initiator's StatusReport.
    private func resume(
        _ sigma1: Sigma1, record: CASEResumptionStore.Record, fabric: CASECredentials, message: ReceivedMessage,
        exchange: Exchange, peerMRP: MRPParameters, node: isolated TransportNode
    ) {
        let localSessionID = node.allocateSessionID()
        do {
            let newID = try SecureRandom.bytes(count: 16)
            let mic = try CASECrypto.resumeMIC(
                shared: record.sharedSecret, initiatorRandom: sigma1.initiatorRandom,
                resumptionID: newID, info: CASEKeySchedule.sigma2ResumeInfo,
                nonce: CASEKeySchedule.resume2Nonce)
            let keys = try SessionKeyDerivation.keys(
                secret: record.sharedSecret, salt: sigma1.initiatorRandom + record.resumptionID,
                info: SessionKeyDerivation.resumptionKeysInfo, isInitiator: false)
            try exchange.send(
                opcode: SecureChannelOpcode.sigma2Resume,
                payload: Sigma2Resume(
                    resumptionID: newID, mic: mic, responderSessionID: localSessionID,
                    sessionParameters: .local(localMRP, maxPathsPerInvoke: maxPathsPerInvoke)
                ).encoded())
            var updated = record
            updated.resumptionID = newID
            let peer = CASEPeer(
                fabricIndex: fabric.fabricIndex, fabricID: fabric.fabricID, nodeID: record.peerNodeID,
                cats: record.peerCATs)
            exchange.onMessage = { [self] node, message, exchange in
                // The initiator confirms a resumption with a StatusReport.
                guard message.isMessage(.secureChannel, SecureChannelOpcode.statusReport),
                    let report = try? StatusReport(decoding: message.payload), report.isSuccess
                else {
                    node.releaseSessionID(localSessionID)
                    statistics.failed += 1
                    fail(.invalidMessage("resumption not confirmed"), exchange: exchange, node: node, status: nil)
                    return
                }
                exchange.close()
                let session = node.addSecureSession(
                    SecureSessionParameters(
                        kind: .case(
                            fabricIndex: fabric.fabricIndex, localNodeID: fabric.nodeID,
                            peerNodeID: record.peerNodeID, peerCATs: record.peerCATs),
                        localSessionID: localSessionID, peerSessionID: sigma1.initiatorSessionID, keys: keys,
                        peerAddress: message.peerAddress, peerMRP: peerMRP, isInitiator: false))
                node.removeUnsecuredSession(exchange.session)
                resumption.save(updated)
                statistics.resumed += 1
                onEstablished?(session, peer)
            }
            exchange.onFailure = { [self] node, error, exchange in
                node.releaseSessionID(localSessionID)
                statistics.failed += 1
                fail(.transport(error), exchange: exchange, node: node, status: nil)
            }
        } catch {
            node.releaseSessionID(localSessionID)
            statistics.failed += 1
            fail(
                .crypto(error as? CryptoError ?? .invalidState("\(error)")), exchange: exchange, node: node,
                status: StatusReport.SecureChannelCode.invalidParameter)
        }
    }

    /// Sends a failure StatusReport (when `status` is given), closes the exchange, forgets the handshake.
    /// A `refusal` (a Sigma1 refused before any handshake state) is logged at info level only: a peer
    /// may send those by the thousand, and `statistics` counts them.
    func fail(
        _ error: SecureChannelError, exchange: Exchange, node: isolated TransportNode, status: UInt16?,
        refusal: Bool = false
    ) {
        if let status {
            let report = StatusReport(generalCode: .failure, protocolCode: status)
            try? exchange.send(opcode: SecureChannelOpcode.statusReport, payload: report.encoded)
        }
        exchange.close()
        node.removeUnsecuredSession(exchange.session)
        log.log(refusal ? .info : .notice, "CASE failed: \(error)")
        onFailure?(error)
    }

    /// After Sigma2: waits for Sigma3.
    final class FullHandshake: @unchecked Sendable {
        // @unchecked: captured by its exchange's callbacks, which the node calls on its queue.
        let responder: CASEResponder
        let fabric: CASECredentials
        let ipk: [UInt8]
        let shared: [UInt8]
        let transcript: [UInt8]
        let localSessionID: UInt16
        let peerSessionID: UInt16
        let peerMRP: MRPParameters
        let ownEphemeralKey: [UInt8]
        let peerEphemeralKey: [UInt8]
        let resumptionID: [UInt8]

        init(
            responder: CASEResponder, fabric: CASECredentials, ipk: [UInt8], shared: [UInt8], transcript: [UInt8],
            localSessionID: UInt16, peerSessionID: UInt16, peerMRP: MRPParameters, ownEphemeralKey: [UInt8],
            peerEphemeralKey: [UInt8], resumptionID: [UInt8]
        ) {
            self.responder = responder
            self.fabric = fabric
            self.ipk = ipk
            self.shared = shared
            self.transcript = transcript
            self.localSessionID = localSessionID
            self.peerSessionID = peerSessionID
            self.peerMRP = peerMRP
            self.ownEphemeralKey = ownEphemeralKey
            self.peerEphemeralKey = peerEphemeralKey
            self.resumptionID = resumptionID
        }

        /// Checks the initiator's answer to Sigma2 (spec 4.14.2.4): Sigma3 that decrypts, whose
        /// certificates chain to the fabric's root and whose signature covers both ephemeral keys. No
        /// I/O: the caller installs the session or fails the handshake.
        func verify(_ message: ReceivedMessage) throws(SecureChannelError) -> (
            peer: OperationalIdentity, keys: SessionKeys
        ) {
            if message.isMessage(.secureChannel, SecureChannelOpcode.statusReport) {
                let report = try StatusReport(decodingHandshake: message.payload)
                throw SecureChannelError.peerReportedFailure(report)
            }
            guard message.isMessage(.secureChannel, SecureChannelOpcode.sigma3) else {
                throw SecureChannelError.invalidMessage("expected Sigma3, got opcode \(message.opcode)")
            }
            let sigma3 = try Sigma3(decoding: message.payload)
            let s3k = try PASEInitiator.crypto { () throws(CryptoError) in
                try CASECrypto.sigma3Key(shared: shared, ipk: ipk, transcript: transcript)
            }
            let plaintext: [UInt8]
            do {
                plaintext = try CASECrypto.decrypt(sigma3.encrypted, key: s3k, nonce: CASEKeySchedule.sigma3Nonce)
            } catch {
                throw SecureChannelError.invalidMessage("Sigma3 does not decrypt")
            }
            let tbe = try SigmaSignedData.decodeEncrypted(plaintext, name: "TBEData3", expectsResumptionID: false)
            let tbs = tbe.data.toBeSigned(senderEphemeralKey: peerEphemeralKey, receiverEphemeralKey: ownEphemeralKey)
            let peer = try CASEPeerValidation.validate(
                noc: tbe.data.noc, icac: tbe.data.icac, signature: tbe.signature, signedData: tbs, fabric: fabric,
                time: responder.validationTime())
            let keys = try PASEInitiator.crypto { () throws(CryptoError) in
                try SessionKeyDerivation.keys(
                    secret: shared,
                    salt: try CASECrypto.sessionSalt(ipk: ipk, transcript: transcript + message.payload),
                    info: SessionKeyDerivation.sessionKeysInfo, isInitiator: false)
            }
            return (peer, keys)
        }

        func receive(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
            do throws(SecureChannelError) {
                let (peer, keys) = try verify(message)
                let cats = peer.caseAuthenticatedTags.map(\.rawValue)
                // The record is kept before the initiator hears of success: a resumption it tries at
                // once (or a test that then forgets the record) finds it in place.
                responder.resumption.save(
                    .init(
                        resumptionID: resumptionID, sharedSecret: shared,
                        fabricIndex: fabric.fabricIndex, peerNodeID: peer.nodeID, peerCATs: cats))
                try? exchange.send(
                    opcode: SecureChannelOpcode.statusReport, payload: StatusReport.sessionEstablished.encoded)
                exchange.close()
                let session = node.addSecureSession(
                    SecureSessionParameters(
                        kind: .case(
                            fabricIndex: fabric.fabricIndex, localNodeID: fabric.nodeID, peerNodeID: peer.nodeID,
                            peerCATs: cats),
                        localSessionID: localSessionID, peerSessionID: peerSessionID, keys: keys,
                        peerAddress: message.peerAddress, peerMRP: peerMRP, isInitiator: false))
                node.removeUnsecuredSession(exchange.session)
                responder.statistics.established += 1
                responder.onEstablished?(
                    session,
                    CASEPeer(
                        fabricIndex: fabric.fabricIndex, fabricID: fabric.fabricID,
                        nodeID: peer.nodeID, cats: cats))
            } catch {
                node.releaseSessionID(localSessionID)
                responder.statistics.failed += 1
                let reported: Bool = if case .peerReportedFailure = error { true } else { false }
                responder.fail(
                    error, exchange: exchange, node: node,
                    status: reported ? nil : StatusReport.SecureChannelCode.invalidParameter)
            }
        }
    }
}

/// Who is at the other end of a CASE session.
package struct CASEPeer: Sendable, Equatable {
    package let fabricIndex: UInt8
    package let fabricID: FabricID
    package let nodeID: NodeID
    /// CASE authenticated tags from the peer's NOC.
    package let cats: [UInt32]
}
