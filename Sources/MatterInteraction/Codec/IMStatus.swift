/// An interaction-model status code (interaction-model.md §7, the SDK's `StatusCodeList.h`).
public struct IMStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = IMStatus(rawValue: 0x00)
    public static let failure = IMStatus(rawValue: 0x01)
    public static let invalidSubscription = IMStatus(rawValue: 0x7D)
    public static let unsupportedAccess = IMStatus(rawValue: 0x7E)
    public static let unsupportedEndpoint = IMStatus(rawValue: 0x7F)
    public static let invalidAction = IMStatus(rawValue: 0x80)
    public static let unsupportedCommand = IMStatus(rawValue: 0x81)
    public static let invalidCommand = IMStatus(rawValue: 0x85)
    public static let unsupportedAttribute = IMStatus(rawValue: 0x86)
    public static let constraintError = IMStatus(rawValue: 0x87)
    public static let unsupportedWrite = IMStatus(rawValue: 0x88)
    public static let resourceExhausted = IMStatus(rawValue: 0x89)
    public static let notFound = IMStatus(rawValue: 0x8B)
    public static let unreportableAttribute = IMStatus(rawValue: 0x8C)
    public static let invalidDataType = IMStatus(rawValue: 0x8D)
    public static let unsupportedRead = IMStatus(rawValue: 0x8F)
    public static let dataVersionMismatch = IMStatus(rawValue: 0x92)
    public static let timeout = IMStatus(rawValue: 0x94)
    public static let unsupportedNode = IMStatus(rawValue: 0x9B)
    public static let busy = IMStatus(rawValue: 0x9C)
    public static let accessRestricted = IMStatus(rawValue: 0x9D)
    public static let unsupportedCluster = IMStatus(rawValue: 0xC3)
    public static let noUpstreamSubscription = IMStatus(rawValue: 0xC5)
    public static let needsTimedInteraction = IMStatus(rawValue: 0xC6)
    public static let unsupportedEvent = IMStatus(rawValue: 0xC7)
    public static let pathsExhausted = IMStatus(rawValue: 0xC8)
    public static let timedRequestMismatch = IMStatus(rawValue: 0xC9)
    public static let failsafeRequired = IMStatus(rawValue: 0xCA)
    public static let invalidInState = IMStatus(rawValue: 0xCB)
    public static let noCommandResponse = IMStatus(rawValue: 0xCC)

    private static let names: [UInt8: String] = [
        0x00: "SUCCESS", 0x01: "FAILURE", 0x7D: "INVALID_SUBSCRIPTION", 0x7E: "UNSUPPORTED_ACCESS",
        0x7F: "UNSUPPORTED_ENDPOINT", 0x80: "INVALID_ACTION", 0x81: "UNSUPPORTED_COMMAND", 0x85: "INVALID_COMMAND",
        0x86: "UNSUPPORTED_ATTRIBUTE", 0x87: "CONSTRAINT_ERROR", 0x88: "UNSUPPORTED_WRITE",
        0x89: "RESOURCE_EXHAUSTED", 0x8B: "NOT_FOUND", 0x8C: "UNREPORTABLE_ATTRIBUTE", 0x8D: "INVALID_DATA_TYPE",
        0x8F: "UNSUPPORTED_READ", 0x92: "DATA_VERSION_MISMATCH", 0x94: "TIMEOUT", 0x9B: "UNSUPPORTED_NODE",
        0x9C: "BUSY", 0x9D: "ACCESS_RESTRICTED", 0xC3: "UNSUPPORTED_CLUSTER", 0xC5: "NO_UPSTREAM_SUBSCRIPTION",
        0xC6: "NEEDS_TIMED_INTERACTION", 0xC7: "UNSUPPORTED_EVENT", 0xC8: "PATHS_EXHAUSTED",
        0xC9: "TIMED_REQUEST_MISMATCH", 0xCA: "FAILSAFE_REQUIRED", 0xCB: "INVALID_IN_STATE",
        0xCC: "NO_COMMAND_RESPONSE",
    ]

    /// The spec's name (`UNSUPPORTED_ACCESS`), or nil for codes this table does not know.
    public var name: String? { Self.names[rawValue] }

    /// The status whose spec name is `name` (any letter case, `-` or `_`), e.g. `unsupported-access`.
    public init?(name: String) {
        let key = name.uppercased().replacingDashes
        guard let code = Self.names.first(where: { $0.value == key })?.key else { return nil }
        self.init(rawValue: code)
    }

    /// True for SUCCESS.
    public var isSuccess: Bool { self == .success }

    /// `UNSUPPORTED_ACCESS (0x7E)`.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return "\(name ?? "STATUS") (0x\(hex.count < 2 ? "0" + hex : hex))"
    }
}

extension String {
    fileprivate var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
