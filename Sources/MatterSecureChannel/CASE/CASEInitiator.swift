package import MatterCore
package import MatterCredentials
import MatterCrypto
package import MatterTransport

/// The initiator side of CASE (spec 4.14.2): opens an operational session with a node of our fabric,
/// resuming a previous session when a resumption record exists.
package enum CASEInitiator {
    package struct Result: Sendable {
        package let session: SessionID
        /// True when the session was resumed (Sigma2_Resume, no certificates exchanged).
        package let resumed: Bool
        package let peer: CASEPeer
    }

    package static func establish(
        node: isolated TransportNode, peer address: UDPAddress, peerNodeID: NodeID, credentials fabric: CASECredentials,
        resumption: CASEResumptionStore? = nil, localMRP: MRPParameters = .default, peerMRP: MRPParameters = .default,
        validationTime: CertificateValidationTime = .now, timeout: UInt64 = 30_000
    ) async throws(SecureChannelError) -> Result {
        let unsecured = node.openUnsecuredSession(to: address, peerMRP: peerMRP)
        let localSessionID = node.allocateSessionID()
        var established = false
        defer {
            node.removeUnsecuredSession(unsecured)
            if !established { node.releaseSessionID(localSessionID) }
        }
        let exchange: Exchange
        do {
            exchange = try node.openExchange(on: unsecured, protocolID: .secureChannel)
        } catch {
            throw .transport(error)
        }
        defer { exchange.close() }
        do {
            let result = try await handshake(
                node: node, exchange: exchange, localSessionID: localSessionID, peerNodeID: peerNodeID, fabric: fabric,
                resumption: resumption, localMRP: localMRP, peerMRP: peerMRP, validationTime: validationTime,
                timeout: timeout)
            established = true
            return result
        } catch {
            switch error {
            case .peerReportedFailure, .busy, .noSharedTrustRoots, .transport: break
            default:
                try? exchange.send(opcode: SecureChannelOpcode.statusReport, payload: PASEInitiator.invalidParameter)
            }
            throw error
        }
    }

    static func handshake(
        node: isolated TransportNode, exchange: Exchange, localSessionID: UInt16, peerNodeID: NodeID,
        fabric: CASECredentials, resumption: CASEResumptionStore?, localMRP: MRPParameters, peerMRP: MRPParameters,
        validationTime: CertificateValidationTime, timeout: UInt64
    ) async throws(SecureChannelError) -> Result {
        guard let epochKey = fabric.initiatorEpochKey else { throw .invalidCredentials("the fabric has no IPK") }
        let ipk = try PASEInitiator.crypto { () throws(CryptoError) in try fabric.operationalIPK(epochKey: epochKey) }
        let ephemeral = try PASEInitiator.crypto { () throws(CryptoError) in try P256PrivateKey() }
        let ephemeralKey = ephemeral.publicKey.x963Representation
        let initiatorRandom = try PASEInitiator.crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 32) }
        let destination = try PASEInitiator.crypto { () throws(CryptoError) in
            try CASEKeySchedule.destinationID(
                operationalIPK: ipk, initiatorRandom: initiatorRandom,
                rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID,
                nodeID: peerNodeID)
        }
        let record = resumption?.record(fabricIndex: fabric.fabricIndex, peerNodeID: peerNodeID)
        var resumeFields: (id: [UInt8], mic: [UInt8])?
        if let record {
            resumeFields = (
                record.resumptionID,
                try PASEInitiator.crypto { () throws(CryptoError) in
                    try CASECrypto.resumeMIC(
                        shared: record.sharedSecret, initiatorRandom: initiatorRandom,
                        resumptionID: record.resumptionID, info: CASEKeySchedule.sigma1ResumeInfo,
                        nonce: CASEKeySchedule.resume1Nonce)
                }
            )
        }
        let sigma1 = Sigma1(
            initiatorRandom: initiatorRandom, initiatorSessionID: localSessionID, destinationID: destination,
            initiatorEphemeralPublicKey: ephemeralKey, sessionParameters: .local(localMRP),
            resumption: resumeFields
        ).encoded()
        let reply: ReceivedMessage
        do {
            reply = try await exchange.request(opcode: SecureChannelOpcode.sigma1, payload: sigma1, timeout: timeout)
        } catch let error as TransportError {
            throw .transport(error)
        } catch {
            throw .invalidMessage("\(error)")
        }
        guard reply.protocolID == .secureChannel else { throw .invalidMessage("reply on protocol \(reply.protocolID)") }
        switch reply.opcode {
        case SecureChannelOpcode.statusReport:
            throw SecureChannelError(report: try StatusReport(decodingHandshake: reply.payload))
        case SecureChannelOpcode.sigma2Resume:
            guard let record, let resumeFields else {
                throw .invalidMessage("Sigma2_Resume without a resumption attempt")
            }
            return try resume(
                node: node, exchange: exchange, reply: reply, record: record, oldID: resumeFields.id,
                initiatorRandom: initiatorRandom, localSessionID: localSessionID, fabric: fabric,
                resumption: resumption, peerMRP: peerMRP)
        case SecureChannelOpcode.sigma2:
            break
        default:
            throw .invalidMessage("expected Sigma2, got opcode \(reply.opcode)")
        }
        let sigma2 = try Sigma2(decoding: reply.payload)
        let peerEphemeral = try PASEInitiator.crypto { () throws(CryptoError) in
            try P256PublicKey(x963Representation: sigma2.responderEphemeralPublicKey)
        }
        let shared = try PASEInitiator.crypto { () throws(CryptoError) in
            try ephemeral.sharedSecret(with: peerEphemeral)
        }
        let s2k = try PASEInitiator.crypto { () throws(CryptoError) in
            try CASECrypto.sigma2Key(
                shared: shared, ipk: ipk, responderRandom: sigma2.responderRandom,
                responderEphemeralKey: sigma2.responderEphemeralPublicKey, sigma1: sigma1)
        }
        let plaintext: [UInt8]
        do {
            plaintext = try CASECrypto.decrypt(sigma2.encrypted, key: s2k, nonce: CASEKeySchedule.sigma2Nonce)
        } catch {
            throw .invalidMessage("Sigma2 does not decrypt")
        }
        let tbe2 = try SigmaSignedData.decodeEncrypted(plaintext, name: "TBEData2", expectsResumptionID: true)
        let tbs2 = tbe2.data.toBeSigned(
            senderEphemeralKey: sigma2.responderEphemeralPublicKey,
            receiverEphemeralKey: ephemeralKey)
        let peer = try CASEPeerValidation.validate(
            noc: tbe2.data.noc, icac: tbe2.data.icac, signature: tbe2.signature,
            signedData: tbs2, fabric: fabric, time: validationTime)
        guard peer.nodeID == peerNodeID else {
            throw .invalidCredentials("the responder's NOC is for node \(peer.nodeID), not \(peerNodeID)")
        }
        // Sigma3: our chain, signed over our and their ephemeral keys.
        let chain = SigmaSignedData(noc: fabric.noc, icac: fabric.icac)
        let tbs3 = chain.toBeSigned(
            senderEphemeralKey: ephemeralKey, receiverEphemeralKey: sigma2.responderEphemeralPublicKey)
        let transcript = sigma1 + reply.payload
        let sigma3 = try PASEInitiator.crypto { () throws(CryptoError) in
            let signature = try fabric.operationalKey.signature(for: tbs3).rawRepresentation
            let s3k = try CASECrypto.sigma3Key(shared: shared, ipk: ipk, transcript: transcript)
            return Sigma3(
                encrypted: try CASECrypto.encrypt(
                    chain.toBeEncrypted(signature: signature, resumptionID: nil),
                    key: s3k, nonce: CASEKeySchedule.sigma3Nonce)
            ).encoded()
        }
        let final = try await PASEInitiator.exchangeStep(
            exchange, SecureChannelOpcode.sigma3, sigma3, expecting: nil,
            timeout: timeout)
        let report = try StatusReport(decodingHandshake: final.payload)
        guard report.isSuccess else { throw SecureChannelError(report: report) }
        let keys = try PASEInitiator.crypto { () throws(CryptoError) in
            try SessionKeyDerivation.keys(
                secret: shared,
                salt: try CASECrypto.sessionSalt(ipk: ipk, transcript: transcript + sigma3),
                info: SessionKeyDerivation.sessionKeysInfo, isInitiator: true)
        }
        let cats = peer.caseAuthenticatedTags.map(\.rawValue)
        let session = node.addSecureSession(
            SecureSessionParameters(
                kind: .case(
                    fabricIndex: fabric.fabricIndex, localNodeID: fabric.nodeID, peerNodeID: peerNodeID, peerCATs: cats),
                localSessionID: localSessionID, peerSessionID: sigma2.responderSessionID, keys: keys,
                peerAddress: final.peerAddress, peerMRP: sigma2.sessionParameters?.mrp ?? peerMRP, isInitiator: true))
        resumption?.save(
            .init(
                resumptionID: tbe2.resumptionID ?? [], sharedSecret: shared, fabricIndex: fabric.fabricIndex,
                peerNodeID: peerNodeID, peerCATs: cats))
        return Result(
            session: session, resumed: false,
            peer: CASEPeer(fabricIndex: fabric.fabricIndex, fabricID: fabric.fabricID, nodeID: peerNodeID, cats: cats))
    }

    /// Sigma2_Resume: check its MIC, confirm with a StatusReport, derive the resumption keys.
    static func resume(
        node: isolated TransportNode, exchange: Exchange, reply: ReceivedMessage, record: CASEResumptionStore.Record,
        oldID: [UInt8], initiatorRandom: [UInt8], localSessionID: UInt16, fabric: CASECredentials,
        resumption: CASEResumptionStore?, peerMRP: MRPParameters
    ) throws(SecureChannelError) -> Result {
        let message = try Sigma2Resume(decoding: reply.payload)
        let expected = try PASEInitiator.crypto { () throws(CryptoError) in
            try CASECrypto.resumeMIC(
                shared: record.sharedSecret, initiatorRandom: initiatorRandom,
                resumptionID: message.resumptionID, info: CASEKeySchedule.sigma2ResumeInfo,
                nonce: CASEKeySchedule.resume2Nonce)
        }
        guard SecureMemory.constantTimeEquals(expected, message.mic) else {
            throw .invalidMessage("Sigma2_Resume MIC does not verify")
        }
        let keys = try PASEInitiator.crypto { () throws(CryptoError) in
            try SessionKeyDerivation.keys(
                secret: record.sharedSecret, salt: initiatorRandom + oldID,
                info: SessionKeyDerivation.resumptionKeysInfo, isInitiator: true)
        }
        do {
            try exchange.send(
                opcode: SecureChannelOpcode.statusReport, payload: StatusReport.sessionEstablished.encoded)
        } catch {
            throw .transport(error)
        }
        let session = node.addSecureSession(
            SecureSessionParameters(
                kind: .case(
                    fabricIndex: fabric.fabricIndex, localNodeID: fabric.nodeID, peerNodeID: record.peerNodeID,
                    peerCATs: record.peerCATs),
                localSessionID: localSessionID, peerSessionID: message.responderSessionID, keys: keys,
                peerAddress: reply.peerAddress, peerMRP: message.sessionParameters?.mrp ?? peerMRP, isInitiator: true))
        var updated = record
        updated.resumptionID = message.resumptionID
        resumption?.save(updated)
        return Result(
            session: session, resumed: true,
            peer: CASEPeer(
                fabricIndex: fabric.fabricIndex, fabricID: fabric.fabricID, nodeID: record.peerNodeID,
                cats: record.peerCATs))
    }
}
