import MatterController
import MatterStorage

/// Why a Home API call failed: one class per failure (the same classes as the `matter-emu` CLI's exit
/// codes, plus ``Category/cancelled``) and a message a person can act on.
public struct HomeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of a failure.
    public enum Category: String, Sendable, Hashable {
        /// A value the caller gave cannot be used (unknown room, read-only attribute, no commissioning
        /// prepared...).
        case invalidArgument
        /// No device matching the onboarding payload or address was found, or discovery is unavailable.
        case discovery
        /// The PASE handshake failed: wrong passcode, device busy, window closed.
        case pase
        /// Device attestation failed.
        case attestation
        /// A commissioning stage failed, or another commissioning owns the state directory.
        case commissioning
        /// The device could not be reached: resolution, CASE, or no answer in time.
        case unreachable
        /// The device answered with an interaction-model error status.
        case status
        /// The state directory or its store failed.
        case storage
        /// The operation was cancelled (``Structure/cancelMatterCommissioning()`` or task cancellation).
        case cancelled
        /// Anything else (a bug, or the system refused a resource).
        case internalFailure
    }

    /// The class of this failure.
    public let category: Category
    /// One line saying what failed and, where possible, what to do about it.
    public let message: String

    /// An error of `category` saying `message`.
    public init(_ category: Category, _ message: String) {
        self.category = category
        self.message = message
    }

    public var description: String { message }
}

extension HomeError {
    /// The controller's failure, in the same class.
    init(_ error: ControllerError) {
        let category: Category =
            if error.isCancellation { .cancelled } else {
                switch error.category {
                case .invalidArgument: .invalidArgument
                case .discovery: .discovery
                case .pase: .pase
                case .attestation: .attestation
                case .commissioning: .commissioning
                case .unreachable: .unreachable
                case .status: .status
                case .storage: .storage
                case .internalFailure: .internalFailure
                }
            }
        self.init(category, error.description)
    }

    /// A store failure.
    init(_ error: StorageError) {
        self.init(.storage, error.description)
    }

    static func invalid(_ message: String) -> HomeError { HomeError(.invalidArgument, message) }
}
