/// Why a cluster, attribute, command or value could not be found or encoded.
public enum ClusterSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No cluster has this name or ID.
    case unknownCluster(String)
    /// The cluster has no attribute with this name or ID.
    case unknownAttribute(String, cluster: String)
    /// The cluster has no command with this name or ID.
    case unknownCommand(String, cluster: String)
    /// The command or struct has no field with this name.
    case unknownField(name: String, in: String)
    /// A mandatory field was not given.
    case missingField(name: String, in: String)
    /// More positional arguments than the command has fields.
    case tooManyArguments(expected: Int, got: Int, in: String)
    /// The text is not a valid value of the type.
    case invalidValue(String, expected: String, for: String)
    /// The number is outside the type's range.
    case outOfRange(String, type: String, for: String)
    /// `null` given for a value that is not nullable.
    case notNullable(String)
    /// The text is not valid JSON.
    case invalidJSON(String, reason: String)

    public var description: String {
        switch self {
        case .unknownCluster(let name): "unknown cluster '\(name)'"
        case .unknownAttribute(let name, let cluster): "cluster \(cluster) has no attribute '\(name)'"
        case .unknownCommand(let name, let cluster): "cluster \(cluster) has no command '\(name)'"
        case .unknownField(let name, let owner): "\(owner) has no field '\(name)'"
        case .missingField(let name, let owner): "\(owner): missing value for '\(name)'"
        case .tooManyArguments(let expected, let got, let owner):
            "\(owner) takes at most \(expected) value(s), \(got) given"
        case .invalidValue(let text, let expected, let owner): "\(owner): '\(text)' is not a valid \(expected)"
        case .outOfRange(let text, let type, let owner): "\(owner): \(text) is out of range for \(type)"
        case .notNullable(let owner): "\(owner) cannot be null"
        case .invalidJSON(let text, let reason): "invalid JSON '\(text)': \(reason)"
        }
    }
}
