import MatterCore
import MatterCredentials
import MatterStorage
import MatterTransport

/// What each commissioning stage does (``attemptSteps`` lists them): it reads what earlier stages
/// left in the context, sends its request (`Controller+CommissioningCommands.swift`), keeps the
/// answer, and returns the detail of its `succeeded` event.
extension Controller {
    func discover(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        guard let found = try await discoverCommissionable(context.request.locator) else {
            throw .notFound(Self.noDeviceMessage(context.request.locator, timeout: configuration.discoveryTimeout))
        }
        context.target = found
        return found.description
    }

    /// PASE with the device discovery found, or another one matching the code (it arms a fail-safe).
    func establishPASE(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let (pase, chosen) = try await establishPASE(
            candidatesFrom: try context.value(context.target, "device"), request: context.request)
        context.target = chosen
        context.pase = pase
        return "secure session with \(pase.address)"
    }

    func readCommissioningInfo(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let info = try await readCommissioningInfo(try context.paseSession().session)
        context.info = info
        context.expiry = info.failSafeExpiryLengthSeconds > 0 ? info.failSafeExpiryLengthSeconds : 60
        context.failSafe.milliseconds = UInt64(context.expiry) * 1000
        return info.description
    }

    func armFailSafe(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        try await rearmFailSafe(context)
        return "armed for \(context.expiry) s"
    }

    /// ArmFailSafe over PASE with the context's expiry (the flow's re-arm, too).
    func rearmFailSafe(_ context: CommissioningContext) async throws(ControllerError) {
        try await armFailSafe(
            context.expiry, breadcrumb: CommissioningStage.armFailSafe.sdkBreadcrumb,
            session: try context.paseSession().session)
    }

    func setRegulatoryConfig(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let regulatory = try context.value(context.info, "commissioning info").regulatoryChoice
        try await setRegulatoryConfig(regulatory, session: try context.paseSession().session)
        return "\(Self.regulatoryName(regulatory)), country \(configuration.countryCode)"
    }

    /// CertificateChainRequest for the PAI (`paiCertificate`) or the DAC.
    func certificateChain(
        _ stage: CommissioningStage, _ context: CommissioningContext
    ) async throws(ControllerError) -> String? {
        let session = try context.paseSession().session
        if stage == .paiCertificate {
            let pai = try await certificateChain(type: 2, name: "PAI", session: session)
            context.pai = pai
            return "\(pai.count) bytes"
        }
        let dac = try await certificateChain(type: 1, name: "DAC", session: session)
        context.dac = dac
        return "\(dac.count) bytes"
    }

    func requestAttestation(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        // The same nonce when the request is sent again.
        let nonce: [UInt8]
        if let earlier = context.attestationNonce { nonce = earlier } else { nonce = try Self.random(32) }
        context.attestationNonce = nonce
        context.attestation = try await requestAttestation(nonce: nonce, session: try context.paseSession().session)
        return nil
    }

    func verifyAttestation(_ context: CommissioningContext) throws(ControllerError) -> String? {
        let info = try context.value(context.info, "commissioning info")
        let attestation = try context.value(context.attestation, "attestation")
        let information = DeviceAttestationInformation(
            attestationElements: attestation.elements, attestationSignature: attestation.signature,
            attestationChallenge: try context.paseSession().attestationChallenge,
            attestationNonce: try context.value(context.attestationNonce, "attestation nonce"),
            dacCertificate: try context.value(context.dac, "DAC"),
            paiCertificate: try context.value(context.pai, "PAI"),
            vendorID: info.vendorID, productID: info.productID)
        let verified = try Self.verifyAttestation(information, with: try attestationVerifier(context))
        context.verified = verified
        return Self.describe(verified)
    }

    /// The verifier against the configured PAAs, built once per attempt.
    func attestationVerifier(_ context: CommissioningContext) throws(ControllerError) -> DeviceAttestationVerifier {
        if let verifier = context.verifier { return verifier }
        do {
            let verifier = try DeviceAttestationVerifier(trustStore: configuration.trustStore)
            context.verifier = verifier
            return verifier
        } catch {
            throw .internalFailure("cannot build the attestation verifier: \(error)")
        }
    }

    func requestCSR(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        // Without attestation the DAC was not verified, but its key still checks the CSR when it parses.
        let dacKey =
            context.request.skipAttestation
            ? try? AttestationCertificate(der: context.value(context.dac, "DAC")).publicKey
            : try context.value(context.verified, "verified attestation").dacPublicKey
        context.operationalKey = try await requestCSR(
            session: try context.paseSession().session, challenge: try context.paseSession().attestationChallenge,
            dacKey: dacKey, verifier: try attestationVerifier(context))
        return nil
    }

    func issueNOC(_ context: CommissioningContext) throws(ControllerError) -> String? {
        let key = try context.value(context.operationalKey, "operational key")
        do { context.noc = try identity.authority.issueNOC(publicKey: key, nodeID: context.nodeID) } catch {
            throw .internalFailure("issuing the NOC: \(error)")
        }
        return "node \(context.nodeID.rawValue) on fabric \(fabricID)"
    }

    func addTrustedRootCertificate(
        _ context: CommissioningContext, isRetry: Bool
    ) async throws(ControllerError) -> String? {
        try await addTrustedRootCertificate(session: try context.paseSession().session, isRetry: isRetry)
        return nil
    }

    /// AddNOC. From here on the device may hold our fabric: the first attempt records that before
    /// sending it, so a crash of this process leaves a record to resume instead of a fabric nobody
    /// knows about.
    func addNOC(_ context: CommissioningContext, isRetry: Bool) async throws(ControllerError) -> String? {
        let pase = try context.paseSession()
        if !isRetry {
            let info = try context.value(context.info, "commissioning info")
            let request = context.request
            let pending = PendingCommissioning(
                nodeID: context.nodeID, vendorID: info.vendorID, productID: info.productID,
                address: pase.address.description, attestationSkipped: request.skipAttestation, name: request.name,
                room: request.room)
            context.pending = pending
            // A store deleted or replaced since it was opened would receive the record (and later the
            // node and nothing else would): stop here, and the fail-safe is disarmed.
            try checkStoreFile()
            // The record's lock says "a live commissioning owns it" to every other process.
            let nodeID = context.nodeID.rawValue
            guard let lock = CommissioningLock.acquire(storePath: store.database.path, nodeID: nodeID) else {
                throw .invalidArgument("node \(nodeID) is being commissioned by another process")
            }
            context.lock = lock
            do throws(StorageError) { try pendingStore().save(pending) } catch { throw .storage(error) }
            context.pendingRecorded = true
            context.timeline?.reached(.pendingRecorded)
        }
        let noc = try context.value(context.noc, "NOC")
        context.fabricIndex = try await addNOC(noc, nodeID: context.nodeID, session: pase.session, isRetry: isRetry)
        return context.fabricIndex.map { "fabric index \($0)" }
    }

    // MARK: Operational

    /// Where to open CASE: the commissioning address while DNS-SD looks up the node meanwhile
    /// (``ControllerConfiguration/caseAtCommissioningAddress``), else the node's operational record.
    func findOperational(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let pase = try context.paseSession()
        let target = try context.value(context.target, "device")
        let lookup = try await startOperationalLookup(context.nodeID, target: target)
        context.lookup = lookup
        if lookup != nil {
            context.operational = [(pase.address, target.mrp)]
        } else {
            context.operational = try await findOperational(context.nodeID, target: target, pase: pase)
        }
        let list = context.operational.map(\.address.description).joined(separator: ", ")
        return lookup == nil ? list : "\(list) (the commissioning address; DNS-SD looks up the node meanwhile)"
    }

    func establishCASE(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let session: OperationalSession
        if let lookup = context.lookup {
            do throws(ControllerError) {
                session = try await establishCASE(context.nodeID, candidates: context.operational)
            } catch {
                if Task.isCancelled { throw error }
                log.info("CASE at the commissioning address failed (\(error)); waiting for DNS-SD")
                session = try await establishCASE(context.nodeID, candidates: try await lookup.candidates())
            }
        } else {
            session = try await establishCASE(context.nodeID, candidates: context.operational)
        }
        context.caseSession = session
        return "with \(session.address)"
    }

    /// CommissioningComplete over CASE; then the node's sessions are the operational one.
    func completeCommissioning(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let session = try await completeCommissioning(
            context.nodeID, session: try context.value(context.caseSession, "CASE session"),
            candidates: context.operational)
        context.caseSession = session
        context.completed = true
        sessions[context.nodeID] = session
        await node.removeSecureSession(try context.paseSession().session)
        return nil
    }

    func readDeviceTypes(_ context: CommissioningContext) async throws(ControllerError) -> String? {
        let reading = await readDeviceTypes(try context.value(context.caseSession, "CASE session").session)
        context.deviceTypes = reading
        return reading.summary
    }

    func storeNode(_ context: CommissioningContext) throws(ControllerError) -> String? {
        let session = try context.value(context.caseSession, "CASE session")
        let address = context.lookup?.advertisedAddress(preferring: session.address) ?? session.address
        let node = try context.value(context.pending, "commissioning record").node(
            deviceTypes: context.deviceTypes?.list ?? [], address: address.description)
        // Before and after the write: a node written to a deleted or replaced file is a node nobody
        // holds, so the fabric is removed from the device again instead.
        try checkStoreFile()
        try storeCommissionedNode(node, timeline: context.timeline)
        try checkStoreFile()
        context.stored = (node, address.description)
        return "node \(context.nodeID.rawValue)"
    }
}
