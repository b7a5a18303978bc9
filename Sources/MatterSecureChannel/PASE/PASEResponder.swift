import MatterCore
package import MatterCrypto
package import MatterTransport

/// The device side of PASE (spec 4.14.1): answers PBKDFParamRequest, Pake1 and Pake3 on the node's
/// queue with the stored SPAKE2+ verifier (w0, L) — never the passcode.
///
/// One commissioning at a time: while a PASE session or a fail-safe owns the device
/// (`commissioningInProgress`) and while another handshake runs, requests get BUSY; a handshake
/// silent for `abandonAfterMilliseconds` is given up (counted as a failure) when the next request
/// comes. A new PBKDFParamRequest from the peer address of the handshake in progress replaces it:
/// that initiator started over, having given up on it (its retransmissions ran out while our answer
/// was acknowledged). A replaced handshake that got as far as Pake2 still counts as a failed attempt,
/// since the initiator could test one passcode guess against it. After `maximumFailedAttempts`
/// failures the commissioning window closes (credentials are dropped and `onWindowClosedByFailures`
/// runs).
/// Owned by the node's secure-channel responder and run in the node's isolation.
package final class PASEResponder: @unchecked Sendable {
    // @unchecked: captured by its exchange's callbacks, which the node calls on its queue; the compiler
    // cannot tie a callback's isolated node to the node that set it.
    /// What the device proves knowledge of: the verifier and its PBKDF2 parameters.
    package struct Credentials: Sendable {
        package var verifier: Spake2PlusPasscodeVerifier
        package var pbkdf: PBKDFParameters
        package init(verifier: Spake2PlusPasscodeVerifier, pbkdf: PBKDFParameters) {
            self.verifier = verifier
            self.pbkdf = pbkdf
        }
    }

    /// Spec 5.5: the window closes after this many failed PASE attempts.
    package static let maximumFailedAttempts = 20
    /// A handshake silent for this long no longer blocks a new one (the SDK's 30 s PASE timeout).
    static let abandonAfterMilliseconds: UInt64 = 30_000

    /// Nil while no commissioning window is open: requests are then refused.
    package var credentials: Credentials? {
        didSet { attempts.reset() }
    }
    package var localMRP: MRPParameters
    /// The commands one InvokeRequest may carry, advertised in the session parameters (BasicInformation
    /// MaxPathsPerInvoke).
    package var maxPathsPerInvoke: UInt16 = 1
    /// Failed attempts in the current window.
    package var failedAttempts: Int { attempts.failed }
    private var attempts = PASEAttempts(limit: PASEResponder.maximumFailedAttempts)
    /// What was asked and how it ended.
    package private(set) var statistics = PASEStatistics()
    /// A PASE session was established (its ID and the peer's address).
    package var onEstablished: ((SessionID, UDPAddress) -> Void)?
    /// A handshake failed (the device-side report of a wrong passcode, for instance).
    package var onFailure: ((SecureChannelError) -> Void)?
    /// The window closed because of too many failures.
    package var onWindowClosedByFailures: (() -> Void)?
    /// How long a commissioning in progress still owns the device (milliseconds, at least 1), or nil
    /// when none does. While one does (a PASE session established, or a fail-safe armed), a new
    /// handshake gets BUSY with that wait: one commissioning at a time (spec 5.5; the SDK stops
    /// listening for PBKDFParamRequest once a PASE session is up), and a handshake that began before
    /// one took the device does not finish. Set by the device.
    package var commissioningInProgress: (() -> UInt16?)?

    private var inProgress: (exchange: Exchange, handshake: Handshake, peer: UDPAddress, since: UInt64)?

    /// True when no handshake is in progress.
    package var isIdle: Bool { inProgress == nil }
    private let log = Logger(label: "pase")

    package init(credentials: Credentials? = nil, localMRP: MRPParameters = .default) {
        self.credentials = credentials
        self.localMRP = localMRP
    }

    /// Handles a PBKDFParamRequest that opened `exchange`.
    func begin(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        let now = node.clock.nowMilliseconds()
        statistics.requests += 1
        let current = inProgress
        let admission = PASEAdmission.decide(
            peer: message.peerAddress, now: now,
            current: current.map {
                PASEAdmission.Current(peer: $0.peer, since: $0.since, sentPake2: $0.handshake.sentPake2)
            },
            windowOpen: credentials != nil, attemptsLeft: attempts.left, commissioningWait: commissioningInProgress?(),
            unsecured: exchange.session.isUnsecured, abandonAfter: Self.abandonAfterMilliseconds)
        if let current {
            switch admission.previous {
            case .kept:
                break
            case .startedOver:
                log.info("PASE: \(message.peerAddress) started over; abandoning its previous handshake")
                statistics.abandoned += 1
                current.handshake.abandon(on: current.exchange, keeping: exchange.session, node: node)
            case .silent(let milliseconds):
                // A half-open handshake: its session, exchange and session ID go now, not when MRP gives up.
                log.info("PASE handshake silent for \(milliseconds) ms: abandoned")
                statistics.abandoned += 1
                current.handshake.fail(
                    .transport(.responseTimeout(milliseconds: Self.abandonAfterMilliseconds)),
                    on: current.exchange, node: node, report: false, abandoned: true)
            }
        }
        switch admission.verdict {
        case .busy(let wait, let reason):
            switch reason {
            case .commissioningOwnsDevice: log.info("PASE request while a commissioning owns the device: BUSY")
            case .handshakeRunning: log.info("PASE request while another handshake runs: BUSY")
            }
            refuseBusy(exchange, waitMilliseconds: wait, node: node)
            return
        case .droppedOnEncryptedSession:
            statistics.invalidRequests += 1
            exchange.close()  // the SDK drops PBKDFParamRequest on an encrypted session
            return
        case .windowClosed:
            log.info("PASE request while the commissioning window is closed")
            statistics.refusedWindowClosed += 1
            // Counted, not reported through `onFailure`: a peer may send these by the thousand.
            reject(exchange, node: node, error: .commissioningWindowClosed, notify: false)
            return
        case .proceed:
            break
        }
        guard let credentials else { return }
        let request: PBKDFParamRequest
        let responderRandom: [UInt8]
        do {
            request = try PBKDFParamRequest(decoding: message.payload)
            guard request.passcodeID == 0 else {
                throw SecureChannelError.invalidMessage("passcodeId \(request.passcodeID)")
            }
            responderRandom = try SecureRandom.bytes(count: 32)
        } catch {
            statistics.invalidRequests += 1
            reject(exchange, node: node, error: error as? SecureChannelError ?? .invalidMessage("\(error)"))
            return
        }
        let peerMRP = request.sessionParameters?.mrp ?? .default
        node.setPeerMRP(peerMRP, for: exchange.session)
        let localSessionID = node.allocateSessionID()
        let response = PBKDFParamResponse(
            initiatorRandom: request.initiatorRandom, responderRandom: responderRandom,
            responderSessionID: localSessionID, pbkdf: request.hasPBKDFParameters ? nil : credentials.pbkdf,
            sessionParameters: .local(localMRP, maxPathsPerInvoke: maxPathsPerInvoke))
        let responseBytes = response.encoded()
        let verifier: Spake2PlusVerifier
        do {
            let context = try PASEContext.hash(request: message.payload, response: responseBytes)
            verifier = try Spake2PlusVerifier(context: context, passcodeVerifier: credentials.verifier)
            try exchange.send(opcode: SecureChannelOpcode.pbkdfParamResponse, payload: responseBytes)
        } catch {
            node.releaseSessionID(localSessionID)
            statistics.invalidRequests += 1
            reject(exchange, node: node, error: .invalidMessage("\(error)"))
            return
        }
        let handshake = Handshake(
            responder: self, verifier: verifier, localSessionID: localSessionID,
            peerSessionID: request.initiatorSessionID, peerMRP: peerMRP)
        inProgress = (exchange, handshake, message.peerAddress, now)
        exchange.onMessage = { node, message, exchange in handshake.receive(message, on: exchange, node: node) }
        exchange.onFailure = { node, error, exchange in
            handshake.fail(.transport(error), on: exchange, node: node, report: false)
        }
    }

    /// Answers BUSY with a minimum wait and forgets the request's unsecured session (the initiator
    /// retries on a new one).
    private func refuseBusy(_ exchange: Exchange, waitMilliseconds: UInt16, node: isolated TransportNode) {
        statistics.refusedBusy += 1
        try? exchange.send(
            opcode: SecureChannelOpcode.statusReport,
            payload: StatusReport.busy(minimumWaitMilliseconds: waitMilliseconds).encoded)
        exchange.close()
        node.removeUnsecuredSession(exchange.session)
    }

    /// Why a handshake past PBKDFParamResponse may no longer go on, if it may not: the window closed
    /// under it, or another commissioning took the device meanwhile.
    func refusal() -> SecureChannelError? {
        if credentials == nil { return .commissioningWindowClosed }
        if commissioningInProgress?() != nil { return .invalidMessage("another commissioning owns the device") }
        return nil
    }

    /// Sends FAILURE/INVALID_PARAMETER (when `report`), closes the exchange, forgets its unsecured
    /// session, and tells `onFailure` (when `notify`).
    func reject(
        _ exchange: Exchange, node: isolated TransportNode, error: SecureChannelError, report: Bool = true,
        notify: Bool = true
    ) {
        if report {
            let status = StatusReport(
                generalCode: .failure, protocolCode: StatusReport.SecureChannelCode.invalidParameter)
            try? exchange.send(opcode: SecureChannelOpcode.statusReport, payload: status.encoded)
        }
        exchange.close()
        node.removeUnsecuredSession(exchange.session)
        if notify { onFailure?(error) }
    }

    /// `counts` false: not a failed attempt (a handshake its initiator replaced before any guess).
    func finished(
        _ exchange: Exchange, failed error: SecureChannelError?, abandoned: Bool = false,
        counts: Bool = true
    ) {
        if inProgress?.exchange === exchange { inProgress = nil }
        guard let error else {
            statistics.established += 1
            return
        }
        if !abandoned { statistics.failed += 1 }
        guard counts else { return }
        log.notice("PASE failed: \(error)")
        if attempts.recordFailure(), credentials != nil {
            log.notice("\(failedAttempts) failed PASE attempts: closing the commissioning window")
            credentials = nil
            onWindowClosedByFailures?()
        }
    }

    /// The state of one handshake after PBKDFParamResponse: waiting for Pake1, then Pake3.
    /// Owned by the exchange it serves, on the node's queue.
    final class Handshake: @unchecked Sendable {
        // @unchecked: captured by its exchange's callbacks, which the node calls on its queue.
        unowned let responder: PASEResponder
        let verifier: Spake2PlusVerifier
        let localSessionID: UInt16
        let peerSessionID: UInt16
        let peerMRP: MRPParameters
        var sentPake2 = false

        init(
            responder: PASEResponder, verifier: Spake2PlusVerifier, localSessionID: UInt16, peerSessionID: UInt16,
            peerMRP: MRPParameters
        ) {
            self.responder = responder
            self.verifier = verifier
            self.localSessionID = localSessionID
            self.peerSessionID = peerSessionID
            self.peerMRP = peerMRP
        }

        func receive(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
            if message.isMessage(.secureChannel, SecureChannelOpcode.statusReport) {
                // The commissioner gave up, e.g. because our Pake2 showed it the wrong passcode.
                let report = try? StatusReport(decoding: message.payload)
                let error: SecureChannelError =
                    sentPake2
                    ? .wrongPasscode
                    : .peerReportedFailure(report ?? StatusReport(generalCode: .failure, protocolCode: 0xFFFF))
                fail(error, on: exchange, node: node, report: false)
                return
            }
            if let refusal = responder.refusal() {
                // The window closed (or another commissioning began) while this handshake ran.
                fail(refusal, on: exchange, node: node, report: true)
                return
            }
            do {
                if !sentPake2 {
                    guard message.isMessage(.secureChannel, SecureChannelOpcode.pake1) else {
                        throw SecureChannelError.invalidMessage("expected Pake1, got opcode \(message.opcode)")
                    }
                    let pA = try PakeMessages.decode("Pake1", message.payload, members: [(1, 65)])[0]
                    let (pB, cB) = try verifier.respond(toProverShare: pA)
                    try exchange.send(opcode: SecureChannelOpcode.pake2, payload: PakeMessages.pake2(pB: pB, cB: cB))
                    sentPake2 = true
                    return
                }
                guard message.isMessage(.secureChannel, SecureChannelOpcode.pake3) else {
                    throw SecureChannelError.invalidMessage("expected Pake3, got opcode \(message.opcode)")
                }
                let cA = try PakeMessages.decode("Pake3", message.payload, members: [(1, 32)])[0]
                do {
                    try verifier.verifyProverConfirmation(cA)
                } catch {
                    throw SecureChannelError.wrongPasscode
                }
                guard let ke = verifier.sharedKey else { throw SecureChannelError.invalidMessage("no shared key") }
                let keys = try SessionKeyDerivation.keys(
                    secret: ke, salt: [], info: SessionKeyDerivation.sessionKeysInfo,
                    isInitiator: false)
                try exchange.send(
                    opcode: SecureChannelOpcode.statusReport, payload: StatusReport.sessionEstablished.encoded)
                exchange.close()
                let session = node.addSecureSession(
                    SecureSessionParameters(
                        kind: .pase, localSessionID: localSessionID, peerSessionID: peerSessionID, keys: keys,
                        peerAddress: message.peerAddress, peerMRP: peerMRP, isInitiator: false))
                node.removeUnsecuredSession(exchange.session)
                responder.finished(exchange, failed: nil)
                responder.onEstablished?(session, message.peerAddress)
            } catch let error as SecureChannelError {
                fail(error, on: exchange, node: node, report: true)
            } catch let error as CryptoError {
                fail(.crypto(error), on: exchange, node: node, report: true)
            } catch {
                fail(.invalidMessage("\(error)"), on: exchange, node: node, report: true)
            }
        }

        /// Ends the handshake because its initiator started a new one (on `newSession`, which stays). It
        /// counts as a failed attempt only if Pake2 went out (a passcode guess could be tested).
        func abandon(on exchange: Exchange, keeping newSession: SessionID, node: isolated TransportNode) {
            node.releaseSessionID(localSessionID)
            exchange.close()
            if exchange.session != newSession { node.removeUnsecuredSession(exchange.session) }
            responder.finished(exchange, failed: .transport(.exchangeClosed), abandoned: true, counts: sentPake2)
        }

        func fail(
            _ error: SecureChannelError, on exchange: Exchange, node: isolated TransportNode, report: Bool,
            abandoned: Bool = false
        ) {
            node.releaseSessionID(localSessionID)
            responder.reject(exchange, node: node, error: error, report: report)
            responder.finished(exchange, failed: error, abandoned: abandoned)
        }
    }
}
