/// Whether an element (a feature, an attribute, a command, an event, a field, a cluster of a device type) is
/// part of a cluster or device type, as the specification writes it (Matter Core 7.3): mandatory, optional,
/// provisional, deprecated, disallowed, or a condition over feature codes, other elements and conditions,
/// with `otherwise` lists and choice groups.
public indirect enum Conformance: Hashable, Sendable, CustomStringConvertible {
    /// `M`.
    case mandatory
    /// `O`.
    case optional
    /// `P`: provisional; implementable, not yet certifiable.
    case provisional
    /// `D`: deprecated; may still be implemented.
    case deprecated
    /// `X`: must not be implemented.
    case disallowed
    /// `desc`: described in prose.
    case described
    /// `LT`, `!OFFONLY`, `LT & DF`: mandatory when the condition holds, disallowed otherwise.
    case mandatoryIf(ConformanceCondition)
    /// `[LT]`: optional when the condition holds, disallowed otherwise.
    case optionalIf(ConformanceCondition)
    /// `P, M`, `LITS, O`: the first term that applies.
    case otherwise([Conformance])
    /// `O.a`, `[LT].b+`: a term in a choice group (`+`: at least one of the group).
    case choice(Conformance, String)

    /// What the conformance means for an element once the features and present elements are known.
    public enum Presence: Hashable, Sendable {
        case mandatory
        case optional
        case disallowed
    }

    /// The presence of the element where `isTrue` tells whether a name (a feature code, another element's
    /// name, a condition) holds; nil for what it cannot tell, which makes the element optional.
    public func presence(_ isTrue: (String) -> Bool?) -> Presence {
        switch self {
        case .mandatory: .mandatory
        case .optional, .provisional, .deprecated, .described: .optional
        case .disallowed: .disallowed
        case .mandatoryIf(let condition):
            switch condition.evaluate(isTrue) {
            case true?: .mandatory
            case false?: .disallowed
            case nil: .optional
            }
        case .optionalIf(let condition): condition.evaluate(isTrue) == false ? .disallowed : .optional
        case .otherwise(let terms): Self.first(of: terms, isTrue)
        case .choice(let term, _): term.presence(isTrue)
        }
    }

    private static func first(of terms: [Conformance], _ isTrue: (String) -> Bool?) -> Presence {
        for term in terms {
            let presence = term.presence(isTrue)
            if presence != .disallowed { return presence }
        }
        return .disallowed
    }

    /// The presence for a cluster whose enabled feature codes are `features`: names that are not features
    /// count as false when they are upper-case codes, and as unknown otherwise.
    public func presence(features: Set<String>) -> Presence {
        presence { name in
            if features.contains(name) { return true }
            return name == name.uppercased() ? false : nil
        }
    }

    /// The specification's notation: `[!OFFONLY]`, `P, M`, `O.a+`.
    public var description: String {
        switch self {
        case .mandatory: "M"
        case .optional: "O"
        case .provisional: "P"
        case .deprecated: "D"
        case .disallowed: "X"
        case .described: "desc"
        case .mandatoryIf(let condition): condition.description
        case .optionalIf(let condition): "[\(condition)]"
        case .otherwise(let terms): terms.map(\.description).joined(separator: ", ")
        case .choice(let term, let group): "\(term).\(group)"
        }
    }
}

/// The condition of a conformance term.
public indirect enum ConformanceCondition: Hashable, Sendable, CustomStringConvertible {
    /// A feature code (`LT`), an element name (`AlarmsActive`) or a condition (`Zigbee`).
    case name(String)
    case not(ConformanceCondition)
    case and(ConformanceCondition, ConformanceCondition)
    case or(ConformanceCondition, ConformanceCondition)
    case xor(ConformanceCondition, ConformanceCondition)
    /// A comparison of values (`Status == Success`, `Rev >= v2`), kept as written; never evaluated.
    case comparison(String)

    /// True or false, or nil when a name it depends on is unknown.
    public func evaluate(_ isTrue: (String) -> Bool?) -> Bool? {
        switch self {
        case .name(let name): return isTrue(name)
        case .not(let inner): return inner.evaluate(isTrue).map { !$0 }
        case .and(let a, let b):
            let (x, y) = (a.evaluate(isTrue), b.evaluate(isTrue))
            if x == false || y == false { return false }
            guard let x, let y else { return nil }
            return x && y
        case .or(let a, let b):
            let (x, y) = (a.evaluate(isTrue), b.evaluate(isTrue))
            if x == true || y == true { return true }
            guard let x, let y else { return nil }
            return x || y
        case .xor(let a, let b):
            guard let x = a.evaluate(isTrue), let y = b.evaluate(isTrue) else { return nil }
            return x != y
        case .comparison: return nil
        }
    }

    public var description: String {
        switch self {
        case .name(let name): name
        case .not(let inner): "!\(inner.parenthesized)"
        case .and(let a, let b): "\(a.parenthesized) & \(b.parenthesized)"
        case .or(let a, let b): "\(a.parenthesized) | \(b.parenthesized)"
        case .xor(let a, let b): "\(a.parenthesized) ^ \(b.parenthesized)"
        case .comparison(let text): text
        }
    }

    private var parenthesized: String {
        switch self {
        case .name, .not, .comparison: description
        default: "(\(description))"
        }
    }
}
