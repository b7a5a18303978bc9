import MatterController
import MatterInteraction
import MatterStorage

/// Why a Home API call failed, as the Home API says it: a ``code`` (the Home API's codes, which are gRPC's),
/// a ``message`` a person can act on and, when the device answered with a Matter status, that status in
/// ``subcodes`` (the interaction-model status, then the cluster's). ``category`` is the finer class of
/// this project (the `matter-emu` CLI's exit codes, plus ``Category/cancelled``). docs/HOME-API.md maps
/// every failure to its code.
public struct HomeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Home API's error codes (the gRPC status codes, with their numbers).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The operation was cancelled (by the caller, or its task).
        case cancelled = 1
        /// A failure the other codes do not describe (a Matter FAILURE, for one).
        case unknown = 2
        /// A value the caller gave cannot be used whatever the state (a malformed onboarding payload, an
        /// attribute value out of its constraints).
        case invalidArgument = 3
        /// The device did not answer in time (a Matter TIMEOUT).
        case deadlineExceeded = 4
        /// What was named does not exist: a room, a device found by no discovery, an endpoint, cluster,
        /// attribute or event the device lacks.
        case notFound = 5
        /// What was to be created exists already (a room of that name).
        case alreadyExists = 6
        /// Not allowed: attestation refused the device, the access control list refused the request.
        case permissionDenied = 7
        /// Out of a resource (a device's RESOURCE_EXHAUSTED, PATHS_EXHAUSTED).
        case resourceExhausted = 8
        /// The system is not in the state the call needs (no commissioning prepared, one already running,
        /// a device not on our fabric, a command the device's state refuses, a timed interaction needed).
        case failedPrecondition = 9
        /// A concurrent change got in the way (a data version that no longer matches).
        case aborted = 10
        case outOfRange = 11
        /// The device does not implement it (an unsupported command or write).
        case unimplemented = 12
        /// This side failed (a bug, a store that cannot be written, a protocol violation by the peer).
        case `internal` = 13
        /// The device cannot be reached now (resolution, CASE, BUSY): trying again later may work.
        case unavailable = 14
        case dataLoss = 15
        /// The device refused our credentials (PASE: the wrong setup passcode).
        case unauthenticated = 16
    }

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

        /// The Home API's code of a failure of this class, when nothing more precise is known.
        var code: Code {
            switch self {
            case .invalidArgument: .invalidArgument
            case .discovery: .notFound
            case .pase: .unauthenticated
            case .attestation: .permissionDenied
            case .commissioning: .failedPrecondition
            case .unreachable: .unavailable
            case .status: .unknown
            case .storage, .internalFailure: .internal
            case .cancelled: .cancelled
            }
        }
    }

    /// The Home API's code of this failure.
    public let code: Code
    /// One line saying what failed and, where possible, what to do about it.
    public let message: String
    /// The Matter status the device answered with: its interaction-model status code, then its cluster
    /// status when it gave one. Empty when the failure was not a device's status.
    public let subcodes: [Int]
    /// This project's class of the failure.
    public let category: Category

    /// An error of `category` saying `message`, with the code of the category unless `code` says better.
    public init(_ category: Category, _ message: String, code: Code? = nil, subcodes: [Int] = []) {
        self.category = category
        self.message = message
        self.code = code ?? category.code
        self.subcodes = subcodes
    }

    /// The operation was cancelled.
    public static func cancelled(_ message: String = "") -> HomeError { HomeError(.cancelled, message) }

    /// A failure nothing more is known of.
    public static func unknown(_ message: String = "") -> HomeError {
        HomeError(.internalFailure, message, code: .unknown)
    }

    /// An error with the Home API's code `code` (`HomeError.notFound("Device does not support FanControl")`),
    /// as an app throws one of its own.
    public static func notFound(_ message: String = "") -> HomeError { app(.notFound, message) }
    public static func invalidArgument(_ message: String = "") -> HomeError { app(.invalidArgument, message) }
    public static func failedPrecondition(_ message: String = "") -> HomeError { app(.failedPrecondition, message) }
    public static func alreadyExists(_ message: String = "") -> HomeError { app(.alreadyExists, message) }
    public static func permissionDenied(_ message: String = "") -> HomeError { app(.permissionDenied, message) }
    public static func unavailable(_ message: String = "") -> HomeError { app(.unavailable, message) }
    public static func deadlineExceeded(_ message: String = "") -> HomeError { app(.deadlineExceeded, message) }
    public static func unimplemented(_ message: String = "") -> HomeError { app(.unimplemented, message) }
    public static func aborted(_ message: String = "") -> HomeError { app(.aborted, message) }
    public static func outOfRange(_ message: String = "") -> HomeError { app(.outOfRange, message) }
    public static func resourceExhausted(_ message: String = "") -> HomeError { app(.resourceExhausted, message) }

    private static func app(_ code: Code, _ message: String) -> HomeError {
        let category: Category =
            switch code {
            case .invalidArgument, .notFound, .alreadyExists, .failedPrecondition, .outOfRange, .unimplemented:
                .invalidArgument
            case .unavailable, .deadlineExceeded: .unreachable
            default: .internalFailure
            }
        return HomeError(category, message, code: code)
    }

    public var description: String { message }

    /// The message (Foundation's name for it).
    public var localizedDescription: String { message }
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
        switch error {
        case .status(let status, _) where !error.isCancellation:
            self.init(
                category, error.description, code: Self.code(of: status.status),
                subcodes: [Int(status.status.rawValue)] + (status.clusterStatus.map { [Int($0)] } ?? []))
        case .notOnFabric:
            self.init(category, error.description, code: .failedPrecondition)
        case .protocolViolation:
            self.init(category, error.description, code: .internal)
        default:
            self.init(category, error.description)
        }
    }

    /// The Home API's code of a Matter interaction-model status (the table in docs/HOME-API.md).
    static func code(of status: IMStatus) -> Code {
        switch status {
        case .unsupportedAccess, .accessRestricted: .permissionDenied
        case .unsupportedEndpoint, .unsupportedCluster, .unsupportedAttribute, .unsupportedEvent, .notFound,
            .unsupportedNode:
            .notFound
        case .unsupportedCommand, .unsupportedWrite, .unsupportedRead, .unreportableAttribute: .unimplemented
        case .invalidAction, .invalidCommand, .constraintError, .invalidDataType: .invalidArgument
        case .resourceExhausted, .pathsExhausted: .resourceExhausted
        case .dataVersionMismatch: .aborted
        case .timeout: .deadlineExceeded
        case .busy, .noUpstreamSubscription: .unavailable
        case .invalidSubscription, .needsTimedInteraction, .timedRequestMismatch, .failsafeRequired,
            .invalidInState:
            .failedPrecondition
        default:
            switch status.rawValue {
            case 0xCF: .invalidArgument  // DYNAMIC_CONSTRAINT_ERROR
            case 0xD0: .alreadyExists  // ALREADY_EXISTS
            case 0xD1: .failedPrecondition  // INVALID_TRANSPORT_TYPE
            default: .unknown  // FAILURE, NO_COMMAND_RESPONSE and statuses of later revisions
            }
        }
    }

    /// A store failure; a value the store refuses is the caller's (invalidArgument, notFound, alreadyExists).
    init(_ error: StorageError) {
        switch error {
        case .invalidArgument: self.init(.invalidArgument, error.description)
        case .noSuchNode, .noSuchGroup: self.init(.invalidArgument, error.description, code: .notFound)
        case .nameAlreadyUsed, .nodeAlreadyExists: self.init(.invalidArgument, error.description, code: .alreadyExists)
        case .storeInUse: self.init(.storage, error.description, code: .unavailable)
        case .storeDamaged, .storeFileChanged, .emptyStoreFile: self.init(.storage, error.description, code: .dataLoss)
        default: self.init(.storage, error.description)
        }
    }

    static func invalid(_ message: String, code: Code = .invalidArgument) -> HomeError {
        HomeError(.invalidArgument, message, code: code)
    }
}
