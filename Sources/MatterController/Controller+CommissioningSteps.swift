/// The commissioning stages as data, in the SDK commissioner's order (`CommissioningStage`): what
/// each one does is a method in `Controller+CommissioningStages.swift`; ``CommissioningFlow`` runs
/// them and owns what they share.
extension Controller {
    typealias Step = CommissioningStep<CommissioningContext>

    /// Before the attempts: find the device (once, however many attempts follow).
    var discoverySteps: [Step] {
        [Step(.discovery) { context, _ throws(ControllerError) in try await self.discover(context) }]
    }

    /// One attempt, from PASE to the store. Requests over PASE are sent again when the device did not
    /// answer; AddTrustedRootCertificate and the operational lookup re-arm the fail-safe first when half
    /// its window is gone.
    var attemptSteps: [Step] {
        let armed = Step.FailSafe.needsArmed(expecting: nil)
        let rearming = Step.FailSafe.needsArmed(expecting: .halfTheWindow)
        return [
            Step(.pase) { context, _ throws(ControllerError) in try await self.establishPASE(context) },
            Step(.readCommissioningInfo, retry: .whenUnreachable("reading commissioning info")) {
                context, _ throws(ControllerError) in
                try await self.readCommissioningInfo(context)
            },
            Step(.armFailSafe, failSafe: .arms, retry: .whenUnreachable("ArmFailSafe")) {
                context, _ throws(ControllerError) in
                try await self.armFailSafe(context)
            },
            Step(.configureRegulatory, failSafe: armed, retry: .whenUnreachable("SetRegulatoryConfig")) {
                context, _ throws(ControllerError) in
                try await self.setRegulatoryConfig(context)
            },
            Step(.paiCertificate, failSafe: armed, retry: .whenUnreachable("CertificateChainRequest(PAI)")) {
                context, _ throws(ControllerError) in try await self.certificateChain(.paiCertificate, context)
            },
            Step(.dacCertificate, failSafe: armed, retry: .whenUnreachable("CertificateChainRequest(DAC)")) {
                context, _ throws(ControllerError) in try await self.certificateChain(.dacCertificate, context)
            },
            Step(.attestationRequest, failSafe: armed, retry: .whenUnreachable("AttestationRequest")) {
                context, _ throws(ControllerError) in
                try await self.requestAttestation(context)
            },
            Step(.attestationVerification, skip: Self.attestationSkip) { context, _ throws(ControllerError) in
                try self.verifyAttestation(context)
            },
            // A repeated CSRRequest makes the device generate a new key; the NOC is for the last one.
            Step(.csrRequest, failSafe: armed, retry: .whenUnreachable("CSRRequest")) {
                context, _ throws(ControllerError) in
                try await self.requestCSR(context)
            },
            Step(.issueNOC) { context, _ throws(ControllerError) in try self.issueNOC(context) },
            Step(.addTrustedRootCertificate, failSafe: rearming, retry: .whenUnreachable("AddTrustedRootCertificate")) {
                context, attempt throws(ControllerError) in
                try await self.addTrustedRootCertificate(context, isRetry: attempt.isRetry)
            },
            Step(.addNOC, failSafe: armed, retry: .whenUnreachable("AddNOC")) {
                context, attempt throws(ControllerError) in
                try await self.addNOC(context, isRetry: attempt.isRetry)
            },
            Step(.findOperational, failSafe: rearming) { context, _ throws(ControllerError) in
                try await self.findOperational(context)
            },
            Step(.caseSession, failSafe: armed) { context, _ throws(ControllerError) in
                try await self.establishCASE(context)
            },
            Step(.commissioningComplete, failSafe: armed) { context, _ throws(ControllerError) in
                try await self.completeCommissioning(context)
            },
            Step(.readDeviceTypes) { context, _ throws(ControllerError) in try await self.readDeviceTypes(context) },
            Step(.storeNode) { context, _ throws(ControllerError) in try self.storeNode(context) },
        ]
    }

    /// Attestation is skipped when the request says so.
    static func attestationSkip(_ context: CommissioningContext) -> String? {
        context.request.skipAttestation ? "skipped on request: the device's identity was NOT verified" : nil
    }
}
