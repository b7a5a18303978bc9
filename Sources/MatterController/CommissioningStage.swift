/// The stages of commissioning, in the order the SDK's commissioner runs them on IP networks
/// (`commissioning-flow.md` §1), plus the controller's own bookkeeping at the end.
public enum CommissioningStage: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// Find the device: `_matterc._udp` filtered by discriminator and vendor, or a direct address.
    case discovery
    /// PASE with the setup passcode (the device arms a 60 s fail-safe).
    case pase
    /// Read Breadcrumb, BasicCommissioningInfo, regulatory values, VendorID and ProductID.
    case readCommissioningInfo
    /// GeneralCommissioning.ArmFailSafe with the device's recommended expiry.
    case armFailSafe
    /// GeneralCommissioning.SetRegulatoryConfig.
    case configureRegulatory
    /// OperationalCredentials.CertificateChainRequest(PAI).
    case paiCertificate
    /// OperationalCredentials.CertificateChainRequest(DAC).
    case dacCertificate
    /// OperationalCredentials.AttestationRequest with a fresh nonce.
    case attestationRequest
    /// Local: the device attestation checks against the PAA trust store.
    case attestationVerification
    /// OperationalCredentials.CSRRequest, and the check of its signature with the DAC key.
    case csrRequest
    /// Local: the fabric's root issues the NOC for the CSR's key.
    case issueNOC
    /// OperationalCredentials.AddTrustedRootCertificate.
    case addTrustedRootCertificate
    /// OperationalCredentials.AddNOC (IPK, CaseAdminSubject, AdminVendorId).
    case addNOC
    /// Resolve `_matter._tcp` `<compressed fabric ID>-<node ID>` (or reuse the direct address).
    case findOperational
    /// CASE on the new fabric.
    case caseSession
    /// GeneralCommissioning.CommissioningComplete over CASE.
    case commissioningComplete
    /// Read the node's Descriptor device types (for the store; failures are tolerated).
    case readDeviceTypes
    /// Write the node to the store.
    case storeNode

    /// The stage as printed: `read-commissioning-info`, `add-noc`.
    public var name: String {
        var out = ""
        var previous: Character?
        for character in rawValue {
            if character.isUppercase, let previous, previous.isLowercase { out += "-" }
            out += character.lowercased()
            previous = character
        }
        return out
    }

    public var description: String { name }

    /// The breadcrumb the SDK stores for this stage (its `CommissioningStage` enum value), for the
    /// commands that carry one.
    var sdkBreadcrumb: UInt64 {
        switch self {
        case .armFailSafe: 3
        case .configureRegulatory: 4
        default: 0
        }
    }
}

/// What happened at one stage, as commissioning runs.
public struct CommissioningEvent: Sendable, Equatable {
    /// How far the stage got.
    public enum Outcome: Sendable, Equatable {
        /// The stage is starting.
        case started
        /// The stage finished; `detail` says what it found (an address, the fail-safe expiry...).
        case succeeded(detail: String?)
        /// The stage was skipped (e.g. attestation with `skipAttestation`); `reason` says why.
        case skipped(reason: String)
        /// The stage failed; commissioning stops.
        case failed(ControllerError)
    }

    public let stage: CommissioningStage
    public let outcome: Outcome
    /// Milliseconds since the stage started (0 for `started`).
    public let durationMilliseconds: UInt64

    public init(stage: CommissioningStage, outcome: Outcome, durationMilliseconds: UInt64) {
        self.stage = stage
        self.outcome = outcome
        self.durationMilliseconds = durationMilliseconds
    }
}
