public import MatterTLV

/// Checks a TLV value against the model's type, nullability and constraint, as a server checks a write
/// (Matter Core 8.7.3: CONSTRAINT_ERROR for a value outside its range, length or enumeration; INVALID_DATA_TYPE
/// for the wrong kind of value). Also gives the value an attribute has before anything is written.
public enum ClusterValueCheck {
    /// Why a value does not fit.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The wrong TLV type (a string for a number, a missing mandatory field).
        case wrongType(String)
        /// Of the right type but out of range, too long, not a known enumeration value, or null where not allowed.
        case constraint(String)

        public var description: String {
            switch self {
            case .wrongType(let text): "wrong type: \(text)"
            case .constraint(let text): "constraint: \(text)"
            }
        }
    }

    /// Checks `value` as a value of `type` (`enumeration`: the enumeration's known values, when named).
    public static func check(
        _ value: TLVValue, type: ClusterDataType, nullable: Bool, constraint: ValueConstraint? = nil,
        enumeration: EnumSchema? = nil, path: String = "value"
    ) throws(Failure) {
        if value == .null {
            guard nullable else { throw .constraint("\(path) is not nullable") }
            return
        }
        switch (type, value) {
        case (.boolean, .bool): return
        case (.unsigned(let bits), .unsigned(let number)), (.bitmap(let bits), .unsigned(let number)):
            try fits(number, bits: bits, path: path)
            if let constraint, !constraint.allows(unsigned: number) {
                throw .constraint("\(path) \(number) out of range")
            }
        case (.enumeration(let bits), .unsigned(let number)):
            try fits(number, bits: bits, path: path)
            if let enumeration, !enumeration.values.contains(where: { $0.value == number }) {
                throw .constraint("\(path) \(number) is not a value of \(enumeration.name)")
            }
        case (.signed(let bits), .signed(let number)):
            if bits < 64 {
                let limit = Int64(1) << Int64(bits - 1)
                guard number >= -limit, number < limit else { throw .constraint("\(path) \(number) out of range") }
            }
            if let constraint, !constraint.allows(number) { throw .constraint("\(path) \(number) out of range") }
        case (.signed(let bits), .unsigned(let number)):
            guard let signed = Int64(exactly: number) else { throw .constraint("\(path) \(number) out of range") }
            try check(
                .signed(signed), type: .signed(bits: bits), nullable: nullable, constraint: constraint, path: path)
        case (.float, .float), (.double, .double), (.double, .float): return
        case (.string(let max), .utf8(let text)):
            if let max, text.utf8.count > max { throw .constraint("\(path) longer than \(max) bytes") }
        case (.octets(let max), .bytes(let bytes)):
            if let max, bytes.count > max { throw .constraint("\(path) longer than \(max) bytes") }
        case (.list(let element), .array(let entries)):
            if let constraint, !constraint.allows(Int64(entries.count)) {
                throw .constraint("\(path) has \(entries.count) entries")
            }
            for (index, entry) in entries.enumerated() {
                try check(entry.value, type: element, nullable: false, path: "\(path)[\(index)]")
            }
        case (.structure(let schema), .structure(let members)):
            for field in schema.fields {
                let member = members.first { $0.tag == .context(field.tag) }
                guard let member else {
                    if field.isOptional { continue }
                    throw .wrongType("\(path).\(field.jsonName) missing")
                }
                try check(
                    member.value, type: field.type, nullable: field.isNullable, constraint: field.constraint,
                    path: "\(path).\(field.jsonName)")
            }
        default:
            throw .wrongType("\(path) is not a \(type)")
        }
    }

    private static func fits(_ number: UInt64, bits: Int, path: String) throws(Failure) {
        guard bits >= 64 || number < (UInt64(1) << UInt64(bits)) else {
            throw .constraint("\(path) \(number) does not fit \(bits) bits")
        }
    }

    /// The value an attribute holds before anything sets it: the specification's default when it gives one,
    /// else null for a nullable attribute, else the type's least value (0, false, empty, the constraint's
    /// minimum), and for a structure its mandatory fields so.
    public static func initialValue(of attribute: AttributeSchema) -> TLVValue {
        if let value = attribute.defaultValue.flatMap({ tlv($0, type: attribute.type) }) { return value }
        if attribute.isNullable { return .null }
        return zero(attribute.type, constraint: attribute.constraint)
    }

    /// A model default as the TLV of `type`, or nil when it does not fit the type.
    public static func tlv(_ value: ModelDefault, type: ClusterDataType) -> TLVValue? {
        switch (value, type) {
        case (.null, _): return .null
        case (.bool(let flag), .boolean): return .bool(flag)
        case (.integer(let number), .unsigned), (.integer(let number), .enumeration), (.integer(let number), .bitmap):
            return UInt64(exactly: number).map { .unsigned($0) }
        case (.integer(let number), .signed): return .signed(number)
        case (.integer(let number), .float): return .float(Float(number))
        case (.integer(let number), .double): return .double(Double(number))
        case (.real(let number), .float): return .float(Float(number))
        case (.real(let number), .double): return .double(number)
        case (.text(let text), .string): return .utf8(text)
        case (.emptyList, .list): return .array([])
        default: return nil
        }
    }

    /// The least value of `type`.
    public static func zero(_ type: ClusterDataType, constraint: ValueConstraint? = nil) -> TLVValue {
        switch type {
        case .boolean: return .bool(false)
        case .unsigned, .enumeration, .bitmap:
            return .unsigned(constraint?.min.flatMap { UInt64(exactly: $0) } ?? 0)
        case .signed:
            let low = constraint?.min ?? 0
            return .signed(low > 0 ? low : 0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .utf8("")
        case .octets: return .bytes([])
        case .list: return .array([])
        case .structure(let schema):
            return .structure(
                schema.fields.filter { !$0.isOptional }.map { field in
                    TLVElement(
                        tag: .context(field.tag),
                        field.isNullable ? .null : zero(field.type, constraint: field.constraint))
                })
        }
    }
}
