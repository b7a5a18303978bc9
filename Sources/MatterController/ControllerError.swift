import MatterCredentials
public import MatterInteraction
public import MatterStorage

/// Why commissioning or control of a node failed. Every case prints as one line a user can act on,
/// and ``category`` tells which class of failure it is (the CLI maps it to an exit code).
public indirect enum ControllerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The class of a failure, one per documented exit code.
    public enum Category: String, Sendable, Hashable {
        /// A value the caller gave is invalid (unknown node name, node ID already used...).
        case invalidArgument
        /// No device matching the onboarding code or address was found.
        case discovery
        /// The PASE handshake failed: wrong passcode, device busy, window closed.
        case pase
        /// Device attestation failed.
        case attestation
        /// A commissioning stage after PASE failed.
        case commissioning
        /// The node could not be reached: resolution, CASE, or no answer in time.
        case unreachable
        /// The device answered with an interaction-model error status.
        case status
        /// The state directory or its store failed.
        case storage
        /// Anything else (a bug, or the system refused a resource).
        case internalFailure
    }

    /// An argument the controller cannot use.
    case invalidArgument(String)
    /// No device was found (commissionable discovery, or an unknown discriminator).
    case notFound(String)
    /// PASE failed for a reason other than silence (see ``unreachable(_:)``).
    case pase(String)
    /// The device's attestation did not verify (`code` is the SDK's AttestationVerificationResult).
    case attestation(code: Int, reason: String)
    /// A device answered a commissioning command with an error code (ArmFailSafe, AddNOC...).
    case rejected(String)
    /// The node did not answer, could not be resolved, or CASE failed.
    case unreachable(String)
    /// The node answered CASE but no longer has this controller's fabric (it was factory reset, or
    /// our fabric was removed from it).
    case notOnFabric(String)
    /// The device answered with a non-success interaction-model status; `context` names the node and path.
    case status(StatusIB, context: String)
    /// The device's answer was malformed or unexpected.
    case protocolViolation(String)
    /// The store failed.
    case storage(StorageError)
    /// A stage of commissioning failed; the wrapped error says why.
    case commissioning(stage: CommissioningStage, CommissioningStageFailure)
    /// Every member of a group failed (the first failures are listed).
    case allMembersFailed(group: String, failures: [String], category: Category)
    /// An unexpected internal failure.
    case internalFailure(String)
    /// The caller's task was cancelled (commissioning stops before its next stage and undoes what it
    /// did on the device). Its class is `commissioning`.
    case cancelled(String)

    /// The class of this failure.
    public var category: Category {
        switch self {
        case .invalidArgument: .invalidArgument
        case .notFound: .discovery
        case .pase: .pase
        case .attestation: .attestation
        case .rejected, .protocolViolation: .commissioning
        case .unreachable, .notOnFabric: .unreachable
        case .status: .status
        case .storage: .storage
        case .commissioning(let stage, let failure): failure.category(at: stage)
        case .allMembersFailed(_, _, let category): category
        case .internalFailure: .internalFailure
        case .cancelled: .commissioning
        }
    }

    public var description: String {
        switch self {
        case .invalidArgument(let why): why
        case .notFound(let why): "device not found: \(why)"
        case .pase(let why): "PASE failed: \(why)"
        case .attestation(_, let reason): "device attestation failed: \(reason)"
        case .rejected(let why): why
        case .unreachable(let why): "node unreachable: \(why)"
        case .notOnFabric(let why): "node unreachable: \(why)"
        case .status(let status, let context): "\(context): the device answered \(status)"
        case .protocolViolation(let why): "unexpected answer: \(why)"
        case .storage(let error): error.description
        case .commissioning(let stage, let failure): "commissioning failed at stage \(stage.name): \(failure.error)"
        case .allMembersFailed(let group, let failures, _):
            "every member of group \"\(group)\" failed: " + failures.joined(separator: "; ")
        case .internalFailure(let why): "internal error: \(why)"
        case .cancelled(let why): "cancelled: \(why)"
        }
    }

    /// True when this is (or wraps) ``cancelled(_:)``.
    public var isCancellation: Bool {
        if case .cancelled = underlying { return true }
        return false
    }

    /// The error under a commissioning stage wrapper (or this error).
    public var underlying: ControllerError {
        if case .commissioning(_, let failure) = self { return failure.error.underlying }
        return self
    }
}

/// The reason a commissioning stage failed; a box so ``ControllerError`` can nest.
public struct CommissioningStageFailure: Equatable, Sendable {
    public let error: ControllerError

    /// Wraps the reason.
    public init(_ error: ControllerError) { self.error = error }

    /// Discovery failures stay discovery failures, PASE ones PASE (or unreachable when the device was
    /// silent), attestation ones attestation, storage ones storage; every other stage's failure is
    /// a commissioning-stage failure.
    func category(at stage: CommissioningStage) -> ControllerError.Category {
        let inner = error.category
        switch stage {
        case .discovery: return inner == .unreachable ? .discovery : inner
        case .pase: return inner
        case .attestationVerification: return inner == .attestation ? .attestation : .commissioning
        case .storeNode: return inner
        default:
            return inner == .invalidArgument || inner == .storage || inner == .attestation ? inner : .commissioning
        }
    }
}

extension ControllerError {
    /// An attestation failure from the verifier.
    init(_ failure: DeviceAttestationFailure) {
        self = .attestation(code: failure.code, reason: failure.description)
    }

    /// Maps an interaction failure on `context` to the controller's classes: statuses stay statuses,
    /// transport failures mean the node is unreachable.
    init(_ error: InteractionError, context: String) {
        switch error {
        case .status(let status): self = .status(StatusIB(status), context: context)
        case .transport(let transport): self = .unreachable("\(context): \(transport)")
        case .subscriptionEnded(let why): self = .unreachable("\(context): subscription ended: \(why)")
        case .malformed, .unexpectedMessage: self = .protocolViolation("\(context): \(error)")
        case .invalidRequest(let why): self = .invalidArgument("\(context): \(why)")
        }
    }
}
