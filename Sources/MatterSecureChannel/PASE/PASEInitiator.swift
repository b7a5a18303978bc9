import MatterCore
import MatterCrypto
package import MatterTransport

/// The commissioner side of PASE (spec 4.14.1): the SPAKE2+ prover, from the setup passcode.
package enum PASEInitiator {
    /// What a successful PASE gives the commissioner.
    package struct Result: Sendable {
        package let session: SessionID
        /// The device's session parameters (MRP intervals, revisions), if it sent them.
        package let peerParameters: SessionParameters?
    }

    /// Runs PASE with the device at `peer` and installs the secure session on `node`.
    ///
    /// - Parameters:
    ///   - pbkdf: the device's PBKDF2 parameters when already known (a QR code's optional data);
    ///     otherwise the device sends them.
    ///   - timeout: per-response wait, milliseconds (after MRP delivery).
    package static func establish(
        node: isolated TransportNode, peer: UDPAddress, passcode: UInt32, pbkdf: PBKDFParameters? = nil,
        localMRP: MRPParameters = .default, peerMRP: MRPParameters = .default, timeout: UInt64 = 30_000
    ) async throws(SecureChannelError) -> Result {
        let unsecured = node.openUnsecuredSession(to: peer, peerMRP: peerMRP)
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
                node: node, exchange: exchange, unsecured: unsecured,
                localSessionID: localSessionID, passcode: passcode, pbkdf: pbkdf,
                localMRP: localMRP, peerMRP: peerMRP, timeout: timeout)
            established = true
            return result
        } catch {
            // Tell the device the handshake is over unless it is the one that ended it or cannot hear us,
            // so it does not wait for the abandonment timeout.
            switch error {
            case .peerReportedFailure, .busy, .noSharedTrustRoots, .commissioningWindowClosed, .transport: break
            default: try? exchange.send(opcode: SecureChannelOpcode.statusReport, payload: invalidParameter)
            }
            throw error
        }
    }

    static func handshake(
        node: isolated TransportNode, exchange: Exchange, unsecured: SessionID, localSessionID: UInt16,
        passcode: UInt32,
        pbkdf: PBKDFParameters?, localMRP: MRPParameters, peerMRP: MRPParameters, timeout: UInt64
    ) async throws(SecureChannelError) -> Result {
        let request = PBKDFParamRequest(
            initiatorRandom: try crypto { () throws(CryptoError) in try SecureRandom.bytes(count: 32) },
            initiatorSessionID: localSessionID, hasPBKDFParameters: pbkdf != nil,
            sessionParameters: .local(localMRP))
        let requestBytes = request.encoded()
        let responseMessage = try await exchangeStep(
            exchange, SecureChannelOpcode.pbkdfParamRequest, requestBytes,
            expecting: SecureChannelOpcode.pbkdfParamResponse, timeout: timeout)
        let response = try PBKDFParamResponse(decoding: responseMessage.payload)
        guard response.initiatorRandom == request.initiatorRandom else {
            throw .invalidMessage("PBKDFParamResponse does not echo our initiatorRandom")
        }
        guard let parameters = pbkdf ?? response.pbkdf else {
            throw .invalidMessage("PBKDFParamResponse carries no PBKDF parameters")
        }
        try parameters.validate()
        let peerMRP = response.sessionParameters?.mrp ?? peerMRP
        node.setPeerMRP(peerMRP, for: unsecured)

        let prover = try crypto { () throws(CryptoError) in
            try Spake2PlusProver(
                context: try PASEContext.hash(request: requestBytes, response: responseMessage.payload),
                passcode: passcode, salt: parameters.salt, iterations: Int(parameters.iterations))
        }
        let pA = try crypto { () throws(CryptoError) in try prover.makeShare() }
        let pake2 = try await exchangeStep(
            exchange, SecureChannelOpcode.pake1, PakeMessages.pake1(pA: pA),
            expecting: SecureChannelOpcode.pake2, timeout: timeout)
        let pake2Members = try PakeMessages.decode("Pake2", pake2.payload, members: [(1, 65), (2, 32)])
        let cA: [UInt8]
        do {
            cA = try prover.confirm(verifierShare: pake2Members[0], verifierConfirmation: pake2Members[1])
        } catch CryptoError.confirmationFailed {
            throw .wrongPasscode
        } catch {
            throw .crypto(error)
        }
        let final = try await exchangeStep(
            exchange, SecureChannelOpcode.pake3, PakeMessages.pake3(cA: cA),
            expecting: nil, timeout: timeout)
        let report = try StatusReport(decodingHandshake: final.payload)
        guard report.isSuccess else { throw .peerReportedFailure(report) }
        guard let ke = prover.sharedKey else { throw .invalidMessage("no SPAKE2+ shared key") }
        let keys = try crypto { () throws(CryptoError) in
            try SessionKeyDerivation.keys(
                secret: ke, salt: [], info: SessionKeyDerivation.sessionKeysInfo, isInitiator: true)
        }
        let session = node.addSecureSession(
            SecureSessionParameters(
                kind: .pase, localSessionID: localSessionID, peerSessionID: response.responderSessionID, keys: keys,
                peerAddress: final.peerAddress, peerMRP: peerMRP, isInitiator: true))
        return Result(session: session, peerParameters: response.sessionParameters)
    }

    static let invalidParameter = StatusReport(
        generalCode: .failure,
        protocolCode: StatusReport.SecureChannelCode.invalidParameter
    ).encoded

    /// Sends one handshake message and waits for the next; a StatusReport in its place becomes the
    /// matching error (BUSY, failure). `expecting` nil accepts only a StatusReport.
    static func exchangeStep(
        _ exchange: Exchange, _ opcode: UInt8, _ payload: [UInt8], expecting: UInt8?, timeout: UInt64
    ) async throws(SecureChannelError) -> ReceivedMessage {
        let reply: ReceivedMessage
        do {
            reply = try await exchange.request(opcode: opcode, payload: payload, timeout: timeout)
        } catch let error as TransportError {
            throw .transport(error)
        } catch {
            throw .invalidMessage("\(error)")
        }
        guard reply.protocolID == .secureChannel else {
            throw .invalidMessage("reply on protocol \(reply.protocolID)")
        }
        if reply.opcode == SecureChannelOpcode.statusReport {
            let report = try StatusReport(decodingHandshake: reply.payload)
            if expecting == nil { return reply }
            // A device answers PBKDFParamRequest with FAILURE/INVALID_PARAMETER when it takes no PASE
            // handshake: its commissioning window is closed (it is commissioned, or the window timed out).
            if opcode == SecureChannelOpcode.pbkdfParamRequest, report.generalCode == .failure,
                report.protocolCode == StatusReport.SecureChannelCode.invalidParameter
            {
                throw .commissioningWindowClosed
            }
            throw SecureChannelError(report: report)
        }
        guard reply.opcode == expecting else {
            throw .invalidMessage(
                "expected opcode 0x\(hexDigits(expecting ?? 0x40, width: 2)), got 0x\(hexDigits(reply.opcode, width: 2))"
            )
        }
        return reply
    }

    static func crypto<T>(_ body: () throws(CryptoError) -> T) throws(SecureChannelError) -> T {
        do {
            return try body()
        } catch {
            throw .crypto(error)
        }
    }
}

extension StatusReport {
    init(decodingHandshake bytes: [UInt8]) throws(SecureChannelError) {
        do {
            self = try StatusReport(decoding: bytes)
        } catch {
            throw .invalidMessage("\(error)")
        }
    }
}

extension SecureChannelError {
    /// The error a failure StatusReport stands for.
    init(report: StatusReport) {
        if report.generalCode == .busy, report.protocolCode == StatusReport.SecureChannelCode.busy {
            let wait =
                report.protocolData.count >= 2
                ? UInt16(report.protocolData[0]) | UInt16(report.protocolData[1]) << 8 : 0
            self = .busy(retryAfterMilliseconds: wait)
        } else if report.protocolCode == StatusReport.SecureChannelCode.noSharedTrustRoots {
            self = .noSharedTrustRoots
        } else {
            self = .peerReportedFailure(report)
        }
    }
}
