// The stages read `timeline.run(.stage, detail: { ... }) { body }`: the detail closure formats the
// stage's result, the trailing closure is the stage (swift-format's rule against mixing the two is off here).
// swift-format-ignore-file: OnlyOneTrailingClosureArgument

import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterSecureChannel
import MatterStorage
import MatterTLV
import MatterTransport

extension Controller {
    /// Commissions a device onto this controller's fabric, stage by stage in the SDK commissioner's
    /// order (`CommissioningStage`), reporting each stage to `progress` as it starts and ends.
    ///
    /// A failure names its stage and reason. After PASE, the device's fail-safe is disarmed
    /// (ArmFailSafe 0) so it rolls back and is commissionable again. The node is written to the store
    /// only after CommissioningComplete succeeded, in one transaction; if that write fails, the new
    /// fabric is removed from the device again.
    ///
    /// Lost messages: a request the device did not answer is sent again (see
    /// ``ControllerConfiguration/interactionRetries``); when the device stops answering altogether (it
    /// restarted, losing its PASE session and whatever its fail-safe held), commissioning starts again
    /// from PASE (``ControllerConfiguration/commissioningAttempts``). A crash of this process between
    /// AddNOC and the store write leaves a record that ``resumeInterruptedCommissionings()`` settles.
    ///
    /// Cancelling the calling task stops commissioning before its next stage (a stage under way
    /// finishes or fails first): it fails with ``ControllerError/cancelled(_:)`` wrapped in its stage,
    /// after the device's fail-safe was disarmed (or our fabric removed, past CommissioningComplete);
    /// no node is stored. Once the node is stored, cancellation no longer applies.
    public func commission(
        _ request: CommissioningRequest, progress: @escaping @Sendable (CommissioningEvent) -> Void = { _ in }
    ) async throws(ControllerError) -> CommissioningResult {
        let nodeID = try prepareNodeID(request)
        let timeline = CommissioningTimeline(
            clock: configuration.clock, progress: progress, checkpoint: configuration.checkpoint)
        var target = try await timeline.run(.discovery, detail: { $0.description }) { () throws(ControllerError) in
            guard let found = try await discoverCommissionable(request.locator) else {
                throw .notFound(Self.noDeviceMessage(request.locator, timeout: configuration.discoveryTimeout))
            }
            return found
        }
        let attempts = max(1, configuration.commissioningAttempts)
        var attempt = 1
        while true {
            do {
                return try await commissionOnce(request, nodeID: nodeID, target: &target, timeline: timeline)
            } catch {
                // Again from PASE only when the device answered PASE and then fell silent (a device
                // that does not answer PASE, after its own retries, is not there).
                guard attempt < attempts, error.underlying.category == .unreachable, !Self.failed(error, at: .pase)
                else { throw error }
                attempt += 1
                log.notice(
                    "\(error.underlying); commissioning node \(nodeID.rawValue) again from PASE "
                        + "(attempt \(attempt) of \(attempts))")
            }
        }
    }

    static func failed(_ error: ControllerError, at stage: CommissioningStage) -> Bool {
        if case .commissioning(let failed, _) = error { return failed == stage }
        return false
    }

    /// One run from PASE to the store; what it left on the device is undone when it fails. `target`
    /// becomes the device PASE succeeded with (another one matching the code, when the first did not
    /// take the passcode).
    private func commissionOnce(
        _ request: CommissioningRequest, nodeID: NodeID, target: inout CommissionableTarget,
        timeline: CommissioningTimeline
    ) async throws(ControllerError) -> CommissioningResult {
        let first = target
        let (pase, chosen) = try await timeline.run(.pase, detail: { "secure session with \($0.0.address)" }) {
            () throws(ControllerError) in
            try await establishPASE(candidatesFrom: first, request: request)
        }
        target = chosen
        let progressState = CommissioningProgress(nodeID: nodeID, pase: pase)
        defer { progressState.lock?.release() }
        do {
            return try await runCommissioning(
                request, nodeID: nodeID, target: chosen, state: progressState,
                timeline: timeline)
        } catch {
            if error.isCancellation {
                // PASE armed the device's fail-safe even when ArmFailSafe was not sent yet.
                progressState.failSafeArmed = true
                // The clean-up talks to the device: it runs in a task of its own, which the caller's
                // cancellation does not reach.
                await Task { await self.abandon(progressState) }.value
            } else {
                await abandon(progressState)
            }
            throw error
        }
    }

    // MARK: Stages after PASE

    private func runCommissioning(
        _ request: CommissioningRequest, nodeID: NodeID, target: CommissionableTarget, state: CommissioningProgress,
        timeline: CommissioningTimeline
    ) async throws(ControllerError) -> CommissioningResult {
        let pase = state.pase.session
        let info = try await timeline.run(.readCommissioningInfo, detail: { $0.description }) {
            () throws(ControllerError) in
            try await retrying("reading commissioning info") { _ throws(ControllerError) in
                try await readCommissioningInfo(pase)
            }
        }
        let expiry = info.failSafeExpiryLengthSeconds > 0 ? info.failSafeExpiryLengthSeconds : 60
        try await timeline.run(.armFailSafe, detail: { _ in "armed for \(expiry) s" }) { () throws(ControllerError) in
            try await retrying("ArmFailSafe") { _ throws(ControllerError) in
                try await armFailSafe(expiry, breadcrumb: CommissioningStage.armFailSafe.sdkBreadcrumb, session: pase)
            }
        }
        state.failSafeArmed = true
        state.armedAt = now
        let regulatory = info.regulatoryChoice
        try await timeline.run(
            .configureRegulatory,
            detail: { _ in "\(Self.regulatoryName(regulatory)), country \(self.configuration.countryCode)" }
        ) {
            () throws(ControllerError) in
            try await retrying("SetRegulatoryConfig") { _ throws(ControllerError) in
                try await setRegulatoryConfig(regulatory, session: pase)
            }
        }
        let pai = try await timeline.run(.paiCertificate, detail: { "\($0.count) bytes" }) {
            () throws(ControllerError) in
            try await retrying("CertificateChainRequest(PAI)") { _ throws(ControllerError) in
                try await certificateChain(type: 2, name: "PAI", session: pase)
            }
        }
        let dac = try await timeline.run(.dacCertificate, detail: { "\($0.count) bytes" }) {
            () throws(ControllerError) in
            try await retrying("CertificateChainRequest(DAC)") { _ throws(ControllerError) in
                try await certificateChain(type: 1, name: "DAC", session: pase)
            }
        }
        let attestationNonce = try Self.random(32)
        let attestation = try await timeline.run(.attestationRequest) { () throws(ControllerError) in
            try await retrying("AttestationRequest") { _ throws(ControllerError) in
                try await requestAttestation(nonce: attestationNonce, session: pase)
            }
        }
        let challenge = state.pase.attestationChallenge
        let verifier: DeviceAttestationVerifier
        do { verifier = try DeviceAttestationVerifier(trustStore: configuration.trustStore) } catch {
            throw .internalFailure("cannot build the attestation verifier: \(error)")
        }
        let dacKey: P256PublicKey?
        if request.skipAttestation {
            timeline.skip(
                .attestationVerification, reason: "skipped on request: the device's identity was NOT verified")
            dacKey = try? AttestationCertificate(der: dac).publicKey
        } else {
            let information = DeviceAttestationInformation(
                attestationElements: attestation.elements, attestationSignature: attestation.signature,
                attestationChallenge: challenge, attestationNonce: attestationNonce, dacCertificate: dac,
                paiCertificate: pai, vendorID: info.vendorID, productID: info.productID)
            let verified = try await timeline.run(.attestationVerification, detail: { Self.describe($0) }) {
                () throws(ControllerError) in try Self.verifyAttestation(information, with: verifier)
            }
            dacKey = verified.dacPublicKey
        }
        let operationalKey = try await timeline.run(.csrRequest) { () throws(ControllerError) in
            // A repeated CSRRequest makes the device generate a new key; the NOC is for the last one.
            try await retrying("CSRRequest") { _ throws(ControllerError) in
                try await requestCSR(session: pase, challenge: challenge, dacKey: dacKey, verifier: verifier)
            }
        }
        let noc = try await timeline.run(
            .issueNOC, detail: { _ in "node \(nodeID.rawValue) on fabric \(self.fabricID)" }
        ) {
            () throws(ControllerError) in
            do { return try identity.authority.issueNOC(publicKey: operationalKey, nodeID: nodeID) } catch {
                throw .internalFailure("issuing the NOC: \(error)")
            }
        }
        await extendFailSafeIfNeeded(state, expiry: expiry)
        try await timeline.run(.addTrustedRootCertificate) { () throws(ControllerError) in
            try await addTrustedRootCertificate(session: pase)
        }
        // From AddNOC on, the device may hold our fabric: record that before sending it, so a crash
        // of this process leaves a record to resume instead of a fabric nobody knows about.
        let pending = PendingCommissioning(
            nodeID: nodeID, vendorID: info.vendorID, productID: info.productID, address: state.pase.address.description,
            attestationSkipped: request.skipAttestation, name: request.name, room: request.room)
        state.fabricIndex = try await timeline.run(.addNOC, detail: { $0.map { "fabric index \($0)" } }) {
            () throws(ControllerError) in
            // A store deleted or replaced since it was opened would receive the record (and later the
            // node and nothing else would): stop here, and the fail-safe is disarmed.
            try checkStoreFile()
            // The record's lock says "a live commissioning owns it" to every other process.
            guard let lock = CommissioningLock.acquire(storePath: store.database.path, nodeID: nodeID.rawValue) else {
                throw .invalidArgument("node \(nodeID.rawValue) is being commissioned by another process")
            }
            state.lock = lock
            do throws(StorageError) { try pendingStore().save(pending) } catch { throw .storage(error) }
            state.pendingRecorded = true
            timeline.reached(.pendingRecorded)
            return try await retrying("AddNOC") { isRetry throws(ControllerError) in
                try await addNOC(noc, nodeID: nodeID, session: pase, isRetry: isRetry)
            }
        }
        await extendFailSafeIfNeeded(state, expiry: expiry)
        let lookup = try await startOperationalLookup(nodeID, target: target)
        defer { lookup?.cancel() }
        let operational = try await timeline.run(
            .findOperational,
            detail: { (found: OperationalLookup.Candidates) in
                let list = found.map(\.address.description).joined(separator: ", ")
                return lookup == nil ? list : "\(list) (the commissioning address; DNS-SD looks up the node meanwhile)"
            }
        ) {
            () throws(ControllerError) -> OperationalLookup.Candidates in
            if lookup != nil { return [(state.pase.address, target.mrp)] }
            return try await findOperational(nodeID, target: target, pase: state.pase)
        }
        let caseSession = try await timeline.run(.caseSession, detail: { "with \($0.address)" }) {
            () throws(ControllerError) -> OperationalSession in
            guard let lookup else { return try await establishCASE(nodeID, candidates: operational) }
            do throws(ControllerError) {
                return try await establishCASE(nodeID, candidates: operational)
            } catch {
                if Task.isCancelled { throw error }
                log.info("CASE at the commissioning address failed (\(error)); waiting for DNS-SD")
                return try await establishCASE(nodeID, candidates: try await lookup.candidates())
            }
        }
        state.caseSession = caseSession
        try await timeline.run(.commissioningComplete) { () throws(ControllerError) in
            state.caseSession = try await completeCommissioning(
                nodeID, session: caseSession, candidates: operational)
        }
        state.completed = true
        let operationalSession = state.caseSession ?? caseSession
        sessions[nodeID] = operationalSession
        await node.removeSecureSession(pase)
        let deviceTypes = try await timeline.run(.readDeviceTypes, detail: { $0.summary }) {
            () throws(ControllerError) in
            await readDeviceTypes(operationalSession.session)
        }
        let address = lookup?.advertisedAddress(preferring: operationalSession.address) ?? operationalSession.address
        let stored = pending.node(deviceTypes: deviceTypes.list, address: address.description)
        try await timeline.run(.storeNode, detail: { _ in "node \(nodeID.rawValue)" }) { () throws(ControllerError) in
            // Before and after the write: a node written to a deleted or replaced file is a node
            // nobody holds, so the fabric is removed from the device again instead.
            try checkStoreFile()
            try storeCommissionedNode(stored, timeline: timeline)
            try checkStoreFile()
        }
        state.stored = true
        return CommissioningResult(
            node: stored, operationalAddress: address.description, events: timeline.events)
    }

    /// Re-arms the fail-safe over PASE when half its time is gone (lost messages and their retries
    /// slow commissioning down), as the SDK's commissioner may before CASE; a failure is ignored (the
    /// device caps the total at MaxCumulativeFailsafeSeconds anyway).
    private func extendFailSafeIfNeeded(_ state: CommissioningProgress, expiry: UInt16) async {
        guard let armedAt = state.armedAt, now &- armedAt > UInt64(expiry) * 500 else { return }
        do {
            try await armFailSafe(
                expiry, breadcrumb: CommissioningStage.armFailSafe.sdkBreadcrumb, session: state.pase.session)
            state.armedAt = now
            log.info("re-armed the fail-safe for \(expiry) s")
        } catch {
            log.info("could not re-arm the fail-safe: \(error)")
        }
    }

    /// Throws a storage error when the store's file was deleted or replaced since it was opened.
    func checkStoreFile() throws(ControllerError) {
        do throws(StorageError) { try store.checkFileUnchanged() } catch { throw .storage(error) }
    }

    /// Writes the node row, then removes its interrupted-commissioning record (a crash in between
    /// leaves a record whose node exists: resuming it just removes it).
    func storeCommissionedNode(_ stored: ControllerNode, timeline: CommissioningTimeline?) throws(ControllerError) {
        do throws(StorageError) { try store.addNode(stored) } catch { throw .storage(error) }
        timeline?.reached(.nodeStored)
        do {
            try pendingStore().remove(stored.nodeID)
        } catch {
            log.warning("cannot remove the commissioning record of node \(stored.nodeID.rawValue): \(error)")
        }
    }

    /// Undoes what a failed commissioning left on the device: disarms the fail-safe (which rolls back
    /// the root certificate and NOC), or removes the fabric when CommissioningComplete had already
    /// succeeded; then forgets the sessions. The interrupted-commissioning record is removed once the
    /// device confirmed; otherwise it stays, for ``resumeInterruptedCommissionings()`` to settle.
    private func abandon(_ state: CommissioningProgress) async {
        var undone = false
        if state.completed, !state.stored, let caseSession = state.caseSession {
            do {
                try await removeFabric(state.fabricIndex, session: caseSession.session, nodeID: state.nodeID)
                log.info("removed our fabric from node \(state.nodeID.rawValue) again")
                undone = true
            } catch {
                log.warning("could not remove our fabric from node \(state.nodeID.rawValue): \(error)")
            }
        } else if state.failSafeArmed {
            undone = await disarmFailSafe(session: state.caseSession?.session ?? state.pase.session)
        }
        if state.pendingRecorded, undone {
            do { try pendingStore().remove(state.nodeID) } catch {
                log.warning("cannot remove the commissioning record of node \(state.nodeID.rawValue): \(error)")
            }
        }
        await node.removeSecureSession(state.pase.session)
        if let caseSession = state.caseSession, !state.stored {
            sessions[state.nodeID] = nil
            await node.removeSecureSession(caseSession.session)
        }
    }

    /// ArmFailSafe(0), waiting at most `Self.disarmWait` for the answer: a device may drop the
    /// session as it disarms and never answer, and the request is on its way (MRP keeps sending it).
    /// True when the device confirmed.
    private func disarmFailSafe(session: SessionID) async -> Bool {
        let (answers, answer) = AsyncStream.makeStream(of: Result<Void, ControllerError>?.self)
        Task {
            do throws(ControllerError) {
                try await self.armFailSafe(0, breadcrumb: 0, session: session)
                answer.yield(.success(()))
            } catch {
                answer.yield(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: Self.disarmWait)
            answer.yield(nil)
        }
        var iterator = answers.makeAsyncIterator()
        let outcome = await iterator.next() ?? nil
        timer.cancel()
        answer.finish()
        switch outcome {
        case .success?:
            log.info("disarmed the device's fail-safe")
            return true
        case .failure(let error)?:
            log.warning("could not disarm the device's fail-safe (it expires on its own): \(error)")
        case nil: log.info("sent ArmFailSafe(0); no answer yet (the device may drop the session as it disarms)")
        }
        return false
    }

    /// How long a failed commissioning waits for the device to confirm the disarm.
    static let disarmWait: Duration = .seconds(2)

    // MARK: Before discovery

    /// The node ID the device will get: the requested one (which must be free) or a new one.
    private func prepareNodeID(_ request: CommissioningRequest) throws(ControllerError) -> NodeID {
        guard SetupPasscode.isValid(request.passcode) else {
            throw .invalidArgument("\(request.passcode) is not a valid setup passcode (the specification forbids it)")
        }
        do {
            if let name = request.name {
                guard name.contains(where: { !$0.isWhitespace }) else {
                    throw ControllerError.invalidArgument("a node name cannot be empty")
                }
                do throws(StorageError) { try ControllerStore.validateNodeOrGroupName(name) } catch {
                    throw ControllerError.invalidArgument("\(error)")
                }
                if try store.node(named: name) != nil || store.group(named: name) != nil {
                    throw ControllerError.invalidArgument("the name \"\(name)\" is already used by a node or a group")
                }
            }
            if let room = request.room, !room.contains(where: { !$0.isWhitespace }) {
                throw ControllerError.invalidArgument("a room name cannot be empty")
            }
            guard let nodeID = request.nodeID else { return try store.allocateNodeID() }
            guard nodeID.isOperational, nodeID != controllerNodeID else {
                throw ControllerError.invalidArgument(
                    "node ID \(nodeID.rawValue) cannot be given to a device (use 1...0xFFFFFFEFFFFFFFFF, not "
                        + "\(controllerNodeID.rawValue), the controller's own)")
            }
            if try store.node(nodeID) != nil {
                throw ControllerError.invalidArgument(
                    "node \(nodeID.rawValue) is already in the store: unpair it first or choose another node ID")
            }
            return nodeID
        } catch let error as ControllerError {
            throw error
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .internalFailure("\(error)")
        }
    }

    // MARK: Discovery and PASE

    /// The first commissionable device `locator` matches whose instance name is not in `excluding`,
    /// or nil when none answered within `timeout` (default: the discovery timeout).
    private func discoverCommissionable(
        _ locator: CommissioningRequest.Locator, excluding: Set<String> = [], timeout: Duration? = nil
    ) async throws(ControllerError) -> CommissionableTarget? {
        let filter: CommissionableFilter
        var extra: [CommissionableFilter] = []
        var product: ProductID?
        switch locator {
        case .address(let direct):
            let addresses = direct.addresses.udpAddresses(port: direct.port)
            guard !addresses.isEmpty else { throw .invalidArgument("no usable address in \(direct)") }
            guard excluding.isEmpty else { return nil }
            return CommissionableTarget(
                description: direct.description, addresses: addresses, mrp: configuration.defaultPeerMRP,
                isDirect: true, instanceName: nil)
        case .commissioningMode:
            filter = .commissioningMode
        case .discriminator(let discriminator, let vendor, let productID):
            switch discriminator {
            case .long(let value): filter = .longDiscriminator(value)
            case .short(let value): filter = .shortDiscriminator(value)
            }
            if let vendor { extra.append(.vendor(vendor)) }
            product = productID
        }
        guard let browser = try await browser() else {
            throw .notFound("discovery is off: give the device's address")
        }
        let timeout = timeout ?? configuration.discoveryTimeout
        let wantedProduct = product
        let found: DiscoveredCommissionableNode?
        do {
            if let dnssd = browser as? any DNSSDBrowser {
                let filters = [filter] + extra
                let services = try await dnssd.browse(filter.query, timeout: timeout, limit: 1) { service in
                    guard !excluding.contains(service.instanceName.lowercased()),
                        let node = try? DiscoveredCommissionableNode(resolved: service), let ad = node.advertisement
                    else { return false }
                    return filters.allSatisfy { $0.matches(ad) }
                        && (wantedProduct == nil || ad.productID == wantedProduct)
                }
                found = services.first.flatMap { try? DiscoveredCommissionableNode(resolved: $0) }
            } else {
                found = try await browser.discoverCommissionable(filter, timeout: timeout, limit: excluding.count + 1)
                    .first { !excluding.contains($0.instanceName.lowercased()) }
            }
        } catch {
            throw .notFound(error.description)
        }
        guard let found else { return nil }
        let addresses = found.addresses.udpAddresses(port: found.port)
        guard !addresses.isEmpty else { throw .notFound("\(found.instanceName) advertised no usable address") }
        return CommissionableTarget(
            description: "\(found.instanceName) at " + addresses.map(\.description).joined(separator: ", "),
            addresses: addresses, mrp: MRPParameters(found.sessionParameters), isDirect: false,
            instanceName: found.instanceName.lowercased())
    }

    /// "no commissionable device with ... answered within ..." for `locator`.
    static func noDeviceMessage(_ locator: CommissioningRequest.Locator, timeout: Duration) -> String {
        var what: [String] = []
        switch locator {
        case .address(let direct): return "no usable address in \(direct)"
        case .commissioningMode: what.append(CommissionableFilter.commissioningMode.description)
        case .discriminator(let discriminator, let vendor, let product):
            switch discriminator {
            case .long(let value): what.append(CommissionableFilter.longDiscriminator(value).description)
            case .short(let value): what.append(CommissionableFilter.shortDiscriminator(value).description)
            }
            if let vendor { what.append(CommissionableFilter.vendor(vendor).description) }
            if let product { what.append("product \(product.rawValue)") }
        }
        return "no commissionable device with \(what.joined(separator: ", ")) answered within \(timeout)"
    }

    /// PASE with the device `first` names and, when it does not take the passcode (or refuses, or
    /// stays silent), with every other device the onboarding code matches, in discovery order: a
    /// manual code's short discriminator is shared by up to 256 long ones, and the SDK's
    /// SetUpCodePairer tries each candidate too. Returns the session and the device it is with.
    ///
    /// What a wrong candidate costs it: a device that refuses at PBKDFParamResponse (busy, window
    /// closed) or never answers spends nothing. A wrong passcode shows only at Pake2, when our prover
    /// checks the device's confirmation; we never send Pake3 then (we end the handshake with a status
    /// report), but the device has sent Pake2 and rightly counts one failed attempt of its 20, since
    /// it cannot tell an honest wrong candidate from a guess. Nothing in a manual code or a device's
    /// advertisement tells candidates apart before that.
    private func establishPASE(
        candidatesFrom first: CommissionableTarget, request: CommissioningRequest
    ) async throws(ControllerError) -> (PASESession, CommissionableTarget) {
        var candidate = first
        var tried: Set<String> = []
        var failures: [ControllerError] = []
        while true {
            do {
                let session = try await establishPASE(candidate, passcode: request.passcode, pbkdf: request.pbkdf)
                return (session, candidate)
            } catch {
                guard let name = candidate.instanceName, error.category == .pase || error.category == .unreachable
                else { throw error }
                failures.append(error)
                tried.insert(name)
                let wait = min(configuration.discoveryTimeout, Self.nextCandidateWait)
                guard let next = try? await discoverCommissionable(request.locator, excluding: tried, timeout: wait)
                else { throw Self.summarize(failures) }
                log.notice("\(candidate.description): \(error); trying the next matching device, \(next.description)")
                candidate = next
            }
        }
    }

    /// How long PASE waits for one more device matching the code after a candidate failed.
    static let nextCandidateWait: Duration = .seconds(3)

    /// The error for every candidate having failed PASE: the one failure as it was, or, for several,
    /// a wrong passcode when any candidate showed one (else the last failure), with the count.
    static func summarize(_ failures: [ControllerError]) -> ControllerError {
        guard failures.count > 1, let last = failures.last else { return failures.first ?? .pase("no device") }
        let wrong = failures.contains { $0 == .pase("wrong setup passcode") }
        let reason: String
        switch last {
        case _ where wrong: reason = "wrong setup passcode"
        case .pase(let why), .unreachable(let why): reason = why
        default: reason = "\(last)"
        }
        let summary = "\(reason) (tried all \(failures.count) devices that match the code)"
        return wrong || last.category == .pase ? .pase(summary) : .unreachable(summary)
    }

    /// PASE with the first address that answers. A handshake lost to silence is tried again (every
    /// address, ``ControllerConfiguration/interactionRetries`` more rounds). A device busy with another
    /// or commissioning is asked again (every 0.5–2 s, within the wait it gives), for up to
    /// ``ControllerConfiguration/paseBusyPatience``: another commissioner's fail-safe, or a handshake
    /// whose initiator died (a crashed commissioner), blocks the device until it expires.
    private func establishPASE(
        _ target: CommissionableTarget, passcode: UInt32, pbkdf: PBKDFParameters?
    ) async throws(ControllerError) -> PASESession {
        var silent: [String] = []
        var busySince: UInt64?
        var round = 0
        while round <= max(0, configuration.interactionRetries) {
            if round > 0, busySince == nil {
                log.info(
                    "PASE: no answer (\(silent.last ?? "")); trying again "
                        + "(\(round) of \(configuration.interactionRetries))")
            }
            var busy: UInt16?
            addresses: for address in target.addresses {
                do {
                    let result = try await PASEInitiator.establish(
                        node: node, peer: address, passcode: passcode, pbkdf: pbkdf, localMRP: configuration.localMRP,
                        peerMRP: target.mrp, timeout: configuration.responseTimeout)
                    guard let parameters = await node.secureSession(result.session) else {
                        throw ControllerError.internalFailure("the PASE session vanished")
                    }
                    return PASESession(
                        session: result.session, address: address,
                        attestationChallenge: parameters.keys.attestationChallenge)
                } catch let error as SecureChannelError {
                    switch error {
                    case .transport(let transport):
                        silent.append("\(address): \(transport)")
                        continue
                    case .wrongPasscode:
                        throw .pase("wrong setup passcode")
                    case .busy(let wait):
                        let since = busySince ?? now
                        if busySince == nil {
                            busySince = since
                            log.notice(
                                "the device is busy with another commissioning or PASE handshake (for at least "
                                    + "\(wait) ms); asking again for up to \(configuration.paseBusyPatience)")
                        }
                        let patience =
                            configuration.paseBusyPatience.components.seconds * 1000
                            + configuration.paseBusyPatience.components.attoseconds / 1_000_000_000_000_000
                        guard now &- since < UInt64(max(0, patience)) else {
                            throw .pase("the device is busy with another commissioner (retry in \(wait) ms)")
                        }
                        busy = wait
                        break addresses
                    case .commissioningWindowClosed:
                        throw .pase("the device's commissioning window is closed")
                    case .peerReportedFailure(let report):
                        throw .pase("the device refused the handshake (\(report))")
                    default:
                        throw .pase(error.description)
                    }
                } catch let error as ControllerError {
                    throw error
                } catch {
                    throw .internalFailure("\(error)")
                }
            }
            if let wait = busy {
                try? await Task.sleep(for: .milliseconds(Int(min(max(wait, 500), 2000))))
                continue  // a busy answer is an answer: not a round lost to silence
            }
            round += 1
        }
        throw .unreachable("the device did not answer PASE (" + silent.joined(separator: "; ") + ")")
    }

    // MARK: Commands over PASE

    private func readCommissioningInfo(_ session: SessionID) async throws(ControllerError) -> CommissioningInfo {
        // The SDK's two reads (transcript §2): concrete commissioning values, wildcards over
        // TimeSynchronization and NetworkCommissioning, then ConnectMaxTimeSeconds and ICD values.
        let general = ClusterID.generalCommissioning
        let first = try await read(
            [
                AttributePathIB(.root(general, .GeneralCommissioning.supportsConcurrentConnection)),
                AttributePathIB(.root(general, .GeneralCommissioning.breadcrumb)),
                AttributePathIB(.root(general, .GeneralCommissioning.basicCommissioningInfo)),
                AttributePathIB(.root(general, .GeneralCommissioning.regulatoryConfig)),
                AttributePathIB(.root(general, .GeneralCommissioning.locationCapability)),
                AttributePathIB(.root(.basicInformation, .BasicInformation.vendorID)),
                AttributePathIB(.root(.basicInformation, .BasicInformation.productID)),
                AttributePathIB(endpoint: .root, cluster: .timeSynchronization),
                AttributePathIB(cluster: .networkCommissioning, attribute: .featureMap),
            ], session: session, fabricFiltered: false, context: "reading commissioning info")
        _ = try await read(
            [AttributePathIB(cluster: .networkCommissioning, attribute: .NetworkCommissioning.connectMaxTimeSeconds)]
                + Self.icdAttributes.map { AttributePathIB(.root(.icdManagement, $0)) },
            session: session, fabricFiltered: false, context: "reading commissioning info")
        func value(_ cluster: ClusterID, _ attribute: AttributeID, _ name: String) throws(ControllerError) -> TLVElement
        {
            let path = ConcreteAttributePath.root(cluster, attribute)
            guard let report = first.report(for: path) else {
                throw .protocolViolation("the device did not report \(name)")
            }
            switch report.result {
            case .success(let value): return TLVElement(value)
            case .failure(let status): throw .status(status, context: "reading \(name)")
            }
        }
        func number<T: FixedWidthInteger>(_ element: TLVElement?, _ name: String) throws(ControllerError) -> T {
            guard let raw = element?.uint, let value = T(exactly: raw) else {
                throw .protocolViolation("\(name) is not a valid \(T.self): \(element.map(\.description) ?? "absent")")
            }
            return value
        }
        let basic = try value(general, .GeneralCommissioning.basicCommissioningInfo, "BasicCommissioningInfo")
        return CommissioningInfo(
            breadcrumb: try number(try value(general, .GeneralCommissioning.breadcrumb, "Breadcrumb"), "Breadcrumb"),
            failSafeExpiryLengthSeconds: try number(basic[context: 0], "FailSafeExpiryLengthSeconds"),
            regulatoryConfig: try number(
                try value(general, .GeneralCommissioning.regulatoryConfig, "RegulatoryConfig"), "RegulatoryConfig"),
            locationCapability: try number(
                try value(general, .GeneralCommissioning.locationCapability, "LocationCapability"),
                "LocationCapability"),
            vendorID: VendorID(
                try number(try value(.basicInformation, .BasicInformation.vendorID, "VendorID"), "VendorID")),
            productID: ProductID(
                try number(try value(.basicInformation, .BasicInformation.productID, "ProductID"), "ProductID")))
    }

    /// ICD Management's UserActiveModeTriggerHint, …Instruction, IdleModeDuration, ActiveModeDuration
    /// and ActiveModeThreshold, as the SDK reads them (absent on our devices).
    static let icdAttributes = [6, 7, 0, 1, 2].map { AttributeID($0) }

    /// ArmFailSafe(expiry, breadcrumb); expiry 0 disarms.
    func armFailSafe(_ expiry: UInt16, breadcrumb: UInt64, session: SessionID) async throws(ControllerError) {
        let fields = try await invoke(
            .root(.generalCommissioning, .GeneralCommissioning.armFailSafe),
            fields: [.field(0, UInt64(expiry)), .field(1, breadcrumb)],
            expecting: .GeneralCommissioning.armFailSafeResponse, session: session, context: "ArmFailSafe")
        try Self.checkCommissioningErrorCode(fields, command: "ArmFailSafe")
    }

    private func setRegulatoryConfig(_ value: UInt8, session: SessionID) async throws(ControllerError) {
        let fields = try await invoke(
            .root(.generalCommissioning, .GeneralCommissioning.setRegulatoryConfig),
            fields: [
                .field(0, UInt64(value)), .field(1, .utf8(configuration.countryCode)),
                .field(2, CommissioningStage.configureRegulatory.sdkBreadcrumb),
            ],
            expecting: .GeneralCommissioning.setRegulatoryConfigResponse, session: session,
            context: "SetRegulatoryConfig")
        try Self.checkCommissioningErrorCode(fields, command: "SetRegulatoryConfig")
    }

    private func certificateChain(type: UInt64, name: String, session: SessionID) async throws(ControllerError)
        -> [UInt8]
    {
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.certificateChainRequest), fields: [.field(0, type)],
            expecting: .OperationalCredentials.certificateChainResponse, session: session,
            context: "CertificateChainRequest(\(name))")
        guard let certificate = fields[context: 0]?.bytes, !certificate.isEmpty,
            certificate.count <= AttestationCertificate.maximumByteCount
        else { throw .protocolViolation("CertificateChainResponse(\(name)) carries no valid certificate") }
        return certificate
    }

    private func requestAttestation(nonce: [UInt8], session: SessionID) async throws(ControllerError)
        -> (elements: [UInt8], signature: [UInt8])
    {
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.attestationRequest), fields: [.field(0, nonce)],
            expecting: .OperationalCredentials.attestationResponse, session: session, context: "AttestationRequest")
        guard let elements = fields[context: 0]?.bytes, let signature = fields[context: 1]?.bytes else {
            throw .protocolViolation("AttestationResponse lacks its elements or signature")
        }
        return (elements, signature)
    }

    static func verifyAttestation(
        _ information: DeviceAttestationInformation, with verifier: DeviceAttestationVerifier
    ) throws(ControllerError) -> VerifiedDeviceAttestation {
        do {
            return try verifier.verify(information, at: .now)
        } catch {
            if case .attestation(let failure) = error { throw ControllerError(failure) }
            throw .attestation(code: 800, reason: "[800] \(error)")
        }
    }

    static func describe(_ verified: VerifiedDeviceAttestation) -> String {
        let vendor = verified.dac.vendorID.map { "VID \($0)" } ?? ""
        let product = verified.dac.productID.map { " PID \($0)" } ?? ""
        return "\(vendor)\(product), PAA \"\(verified.paa.commonName ?? "?")\""
    }

    /// CSRRequest, then the checks of its answer: nonce echo, DAC signature over the elements and the
    /// attestation challenge (unless the DAC is unknown because attestation was skipped), and the
    /// CSR's self-signature. Returns the device's new operational public key.
    private func requestCSR(
        session: SessionID, challenge: [UInt8], dacKey: P256PublicKey?, verifier: DeviceAttestationVerifier
    ) async throws(ControllerError) -> P256PublicKey {
        let nonce = try Self.random(32)
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.csrRequest), fields: [.field(0, nonce)],
            expecting: .OperationalCredentials.csrResponse, session: session, context: "CSRRequest")
        guard let elements = fields[context: 0]?.bytes, let signature = fields[context: 1]?.bytes else {
            throw .protocolViolation("CSRResponse lacks its elements or signature")
        }
        do {
            if let dacKey {
                return try verifier.verifyNOCSRInformation(
                    nocsrElements: elements, attestationSignature: signature, attestationChallenge: challenge,
                    csrNonce: nonce, dacPublicKey: dacKey)
            }
            let parsed = try NOCSRElements(tlv: elements)
            guard parsed.csrNonce == nonce else { throw CredentialsError.nocsrNonceMismatch }
            return try CertificateSigningRequest(der: parsed.csr).publicKey
        } catch {
            throw .protocolViolation("CSRResponse rejected: \(error)")
        }
    }

    /// AddTrustedRootCertificate with our RCAC. A repeat the device refuses with CONSTRAINT_ERROR
    /// (one root per fail-safe) is fine when the device lists our root: the first request got through
    /// and only its answer was lost.
    private func addTrustedRootCertificate(session: SessionID) async throws(ControllerError) {
        let rcac = identity.credentials.rcac
        try await retrying("AddTrustedRootCertificate") { isRetry throws(ControllerError) in
            do throws(ControllerError) {
                _ = try await invoke(
                    .root(.operationalCredentials, .OperationalCredentials.addTrustedRootCertificate),
                    fields: [.field(0, rcac)], session: session, context: "AddTrustedRootCertificate")
            } catch {
                guard isRetry, case .status(let status, _) = error, status.status == .constraintError else {
                    throw error
                }
                let path = ConcreteAttributePath.root(
                    .operationalCredentials, .OperationalCredentials.trustedRootCertificates)
                let result = try await read(
                    [AttributePathIB(path)], session: session, fabricFiltered: false,
                    context: "reading TrustedRootCertificates")
                let roots = result.report(for: path)?.value?.members?.compactMap(\.bytes) ?? []
                guard roots.contains(rcac) else { throw error }
                log.info("AddTrustedRootCertificate: the first request had been accepted (its answer was lost)")
            }
        }
    }

    /// AddNOC with the raw IPK epoch key, our node ID as CaseAdminSubject and our vendor ID; returns the
    /// fabric index the device reported (if it did). A repeat (`isRetry`) the device refuses with
    /// CONSTRAINT_ERROR (one AddNOC per fail-safe) is fine when the device lists our fabric with this
    /// node ID: the first request got through and only its answer was lost.
    private func addNOC(
        _ noc: MatterCertificate, nodeID: NodeID, session: SessionID, isRetry: Bool
    ) async throws(ControllerError) -> UInt8? {
        let fields: TLVElement
        do throws(ControllerError) {
            fields = try await invoke(
                .root(.operationalCredentials, .OperationalCredentials.addNOC),
                fields: [
                    .field(0, noc.tlvEncoded), .field(2, identity.fabric.ipkEpochKey),
                    .field(3, controllerNodeID.rawValue), .field(4, UInt64(OperationalIdentity.adminVendorID.rawValue)),
                ],
                expecting: .OperationalCredentials.nocResponse, session: session, context: "AddNOC")
        } catch {
            guard isRetry, case .status(let status, _) = error, status.status == .constraintError,
                let index = try await ourFabricIndex(nodeID, session: session)
            else { throw error }
            log.info("AddNOC: the first request had been accepted (its answer was lost); fabric index \(index)")
            return index
        }
        try Self.checkNOCStatus(fields, command: "AddNOC")
        return fields[context: 1]?.uint.flatMap { UInt8(exactly: $0) }
    }

    // MARK: Operational

    private func findOperational(
        _ nodeID: NodeID, target: CommissionableTarget, pase: PASESession
    ) async throws(ControllerError) -> [(address: UDPAddress, mrp: MRPParameters)] {
        if target.isDirect { return [(pase.address, target.mrp)] }
        guard let browser = try await browser() else { return [(pase.address, target.mrp)] }
        return try await OperationalLookup.resolve(
            browser, compressedFabricID: identity.compressedFabricID, nodeID: nodeID,
            timeout: configuration.discoveryTimeout)
    }

    /// Starts looking up the node's operational record in the background, when CASE is to be tried
    /// at the commissioning address meanwhile (``ControllerConfiguration/caseAtCommissioningAddress``);
    /// nil when the address was given (it is the operational one) or there is no DNS-SD.
    private func startOperationalLookup(
        _ nodeID: NodeID, target: CommissionableTarget
    ) async throws(ControllerError) -> OperationalLookup? {
        guard configuration.caseAtCommissioningAddress, !target.isDirect, let browser = try await browser() else {
            return nil
        }
        return OperationalLookup(
            browser: browser, compressedFabricID: identity.compressedFabricID, nodeID: nodeID,
            timeout: configuration.discoveryTimeout, clock: configuration.clock, log: log)
    }

    func readDeviceTypes(_ session: SessionID) async -> DeviceTypeReading {
        do {
            let result = try await retrying("reading device types") { _ throws(ControllerError) in
                try await read(
                    [AttributePathIB(cluster: .descriptor, attribute: .Descriptor.deviceTypeList)], session: session,
                    context: "reading device types")
            }
            return DeviceTypeReading(list: Self.deviceTypes(in: result), failure: nil)
        } catch {
            return DeviceTypeReading(list: [], failure: error.description)
        }
    }

    /// The DeviceTypeList entries of every endpoint in a read result.
    static func deviceTypes(in result: ReadResult) -> [NodeDeviceType] {
        var list: [NodeDeviceType] = []
        for report in result.attributes
        where report.path.cluster == .descriptor && report.path.attribute == .Descriptor.deviceTypeList {
            for entry in report.value?.members ?? [] {
                guard let type = entry[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
                    let revision = entry[context: 1]?.uint.flatMap(UInt16.init(exactly:))
                else { continue }
                list.append(
                    NodeDeviceType(endpoint: report.path.endpoint, deviceType: DeviceTypeID(type), revision: revision))
            }
        }
        return list.sorted { ($0.endpoint, $0.deviceType) < ($1.endpoint, $1.deviceType) }
    }

    // MARK: Checks

    static let commissioningErrorNames = [
        0: "OK", 1: "ValueOutsideRange", 2: "InvalidAuthentication", 3: "NoFailSafe", 4: "BusyWithOtherAdmin",
    ]

    static func checkCommissioningErrorCode(_ fields: TLVElement, command: String) throws(ControllerError) {
        guard let code = fields[context: 0]?.uint else {
            throw .protocolViolation("\(command) response has no ErrorCode")
        }
        guard code == 0 else {
            let name = commissioningErrorNames[Int(clamping: code)] ?? "error"
            let debug = fields[context: 1]?.string.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            throw .rejected("the device refused \(command): \(name) (\(code))\(debug)")
        }
    }

    static let nocStatusNames = [
        0: "OK", 1: "InvalidPublicKey", 2: "InvalidNodeOpId", 3: "InvalidNOC", 4: "MissingCsr", 5: "TableFull",
        6: "InvalidAdminSubject", 9: "FabricConflict", 10: "LabelConflict", 11: "InvalidFabricIndex",
    ]

    static func checkNOCStatus(_ fields: TLVElement, command: String) throws(ControllerError) {
        guard let code = fields[context: 0]?.uint else {
            throw .protocolViolation("\(command): NOCResponse has no StatusCode")
        }
        guard code == 0 else {
            let name = nocStatusNames[Int(clamping: code)] ?? "error"
            let debug = fields[context: 2]?.string.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            throw .rejected("the device refused \(command): \(name) (\(code))\(debug)")
        }
    }

    static func regulatoryName(_ value: UInt8) -> String {
        switch value {
        case 0: "indoor"
        case 1: "outdoor"
        case 2: "indoor/outdoor"
        default: "regulatory \(value)"
        }
    }

    static func random(_ count: Int) throws(ControllerError) -> [UInt8] {
        do { return try SecureRandom.bytes(count: count) } catch { throw .internalFailure("random bytes: \(error)") }
    }
}

/// Where a commissionable device was found.
struct CommissionableTarget: Sendable, CustomStringConvertible {
    let description: String
    let addresses: [UDPAddress]
    let mrp: MRPParameters
    /// True when the caller gave the address (so the operational address is the same).
    let isDirect: Bool
    /// The DNS-SD instance name (lower-cased), for a device found by browsing.
    let instanceName: String?
}

/// An established PASE session.
struct PASESession: Sendable {
    let session: SessionID
    let address: UDPAddress
    let attestationChallenge: [UInt8]
}

/// How far commissioning got, for the clean-up after a failure.
final class CommissioningProgress {
    let nodeID: NodeID
    let pase: PASESession
    var failSafeArmed = false
    /// When the fail-safe was last armed (clock milliseconds).
    var armedAt: UInt64?
    /// An interrupted-commissioning record was written (AddNOC may have reached the device).
    var pendingRecorded = false
    /// The record's lock, held while this commissioning runs.
    var lock: CommissioningLock?
    var fabricIndex: UInt8?
    var caseSession: Controller.OperationalSession?
    var completed = false
    var stored = false

    init(nodeID: NodeID, pase: PASESession) {
        self.nodeID = nodeID
        self.pase = pase
    }
}

/// The values ReadCommissioningInfo needs.
struct CommissioningInfo: Sendable, CustomStringConvertible {
    let breadcrumb: UInt64
    let failSafeExpiryLengthSeconds: UInt16
    let regulatoryConfig: UInt8
    let locationCapability: UInt8
    let vendorID: VendorID
    let productID: ProductID

    /// LocationCapability, unless the device can be both indoor and outdoor: then its current
    /// RegulatoryConfig (the SDK's rule when the commissioner has no preference).
    var regulatoryChoice: UInt8 { locationCapability == 2 ? min(regulatoryConfig, 2) : locationCapability }

    var description: String {
        "VID \(vendorID) PID \(productID), fail-safe \(failSafeExpiryLengthSeconds) s, breadcrumb \(breadcrumb)"
    }
}

/// Device types read after commissioning (or why they could not be read).
struct DeviceTypeReading: Sendable {
    let list: [NodeDeviceType]
    let failure: String?

    var summary: String {
        if let failure { return "not read (\(failure))" }
        return list.map { "\($0.endpoint.rawValue):\(DeviceTypeNames.name(of: $0.deviceType))" }.joined(separator: ", ")
    }
}
