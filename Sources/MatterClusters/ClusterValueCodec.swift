import MatterCore
public import MatterTLV

/// Converts between values as users type and read them and TLV, guided by a ``ClusterDataType``.
///
/// Input forms (chip-tool's): integers in decimal or `0x` hexadecimal; booleans `true`/`false`/`1`/`0`;
/// strings as typed; octet strings as `hex:0011aa` or as text (its UTF-8 bytes); `null` for nullable
/// values; lists and structs as JSON, struct fields named in camelCase (`{"deviceType": 22}`) or by
/// tag number (`{"0": 22}`).
///
/// Output is JSON text: numbers in decimal, octet strings as `"hex:..."`, struct fields named from the
/// schema (unknown tags by number).
public enum ClusterValueCodec {
    /// Encodes `text` as a value of `type`.
    public static func encode(text: String, as type: ClusterDataType, nullable: Bool, context: String)
        throws(ClusterSchemaError) -> TLVValue
    {
        let trimmed = text.trimmingSpaces
        if trimmed == "null" {
            guard nullable else { throw .notNullable(context) }
            return .null
        }
        switch type {
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: throw .invalidValue(text, expected: "bool (true/false)", for: context)
            }
        case .unsigned(let bits), .enumeration(let bits), .bitmap(let bits):
            return .unsigned(try unsigned(trimmed, bits: bits, type: type, context: context))
        case .signed(let bits):
            return .signed(try signed(trimmed, bits: bits, type: type, context: context))
        case .float:
            guard let value = Float(trimmed) else { throw .invalidValue(text, expected: "number", for: context) }
            return .float(value)
        case .double:
            guard let value = Double(trimmed) else { throw .invalidValue(text, expected: "number", for: context) }
            return .double(value)
        case .string(let max):
            try checkLength(text.utf8.count, max: max, type: type, context: context)
            return .utf8(text)
        case .octets(let max):
            let bytes = try octets(text, context: context)
            try checkLength(bytes.count, max: max, type: type, context: context)
            return .bytes(bytes)
        case .list, .structure:
            return try encode(json: CLIJSON.parse(text), as: type, nullable: nullable, context: context)
        }
    }

    static func encode(json: CLIJSON, as type: ClusterDataType, nullable: Bool, context: String)
        throws(ClusterSchemaError) -> TLVValue
    {
        if json == .null {
            guard nullable else { throw .notNullable(context) }
            return .null
        }
        switch (type, json) {
        case (.boolean, .bool(let value)):
            return .bool(value)
        case (.list(let element), .array(let items)):
            var members: [TLVElement] = []
            for (index, item) in items.enumerated() {
                members.append(
                    TLVElement(
                        try encode(
                            json: item, as: element, nullable: false,
                            context: "\(context)[\(index)]")))
            }
            return .array(members)
        case (.structure(let schema), .object(let pairs)):
            var values: [UInt8: TLVValue] = [:]
            for (key, value) in pairs {
                let field: FieldSchema
                if let named = schema.field(named: key) {
                    field = named
                } else if let tag = parseUnsigned(key).flatMap(UInt8.init(exactly:)), let byTag = schema.field(tag: tag)
                {
                    field = byTag
                } else {
                    throw .unknownField(name: key, in: "\(context) (\(schema.name))")
                }
                values[field.tag] = try encode(
                    json: value, as: field.type, nullable: field.isNullable,
                    context: "\(context).\(field.jsonName)")
            }
            for field in schema.fields where !field.isOptional && values[field.tag] == nil {
                throw .missingField(name: field.jsonName, in: "\(context) (\(schema.name))")
            }
            return .structure(
                values.keys.sorted().compactMap { tag in
                    values[tag].map { TLVElement(tag: .context(tag), $0) }
                })
        case (.unsigned, .number(let text)), (.enumeration, .number(let text)), (.bitmap, .number(let text)),
            (.signed, .number(let text)), (.float, .number(let text)), (.double, .number(let text)),
            (.unsigned, .string(let text)), (.enumeration, .string(let text)), (.bitmap, .string(let text)),
            (.signed, .string(let text)):
            return try encode(text: text, as: type, nullable: false, context: context)
        case (.string, .string(let text)), (.octets, .string(let text)):
            return try encode(text: text, as: type, nullable: false, context: context)
        default:
            throw .invalidValue(json.summary, expected: type.description, for: context)
        }
    }

    /// The value as JSON text, read as `type`.
    public static func format(_ value: TLVValue, as type: ClusterDataType?) -> String {
        switch value {
        case .null: return "null"
        case .bool(let v): return v ? "true" : "false"
        case .unsigned(let v): return String(v)
        case .signed(let v): return String(v)
        case .float(let v): return v.isFinite ? "\(v)" : "null"
        case .double(let v): return v.isFinite ? "\(v)" : "null"
        case .utf8(let v): return quoted(v)
        case .bytes(let v): return quoted("hex:" + Hex.encode(v))
        case .array(let members), .list(let members):
            var element: ClusterDataType?
            if case .list(let e)? = type { element = e }
            return "[" + members.map { format($0.value, as: element) }.joined(separator: ",") + "]"
        case .structure(let members):
            var schema: StructSchema?
            if case .structure(let s)? = type { schema = s }
            let parts = members.map { member -> String in
                guard case .context(let tag) = member.tag else {
                    return quoted(member.tag.description) + ":" + format(member.value, as: nil)
                }
                if let field = schema?.field(tag: tag) {
                    return quoted(field.jsonName) + ":" + format(member.value, as: field.type)
                }
                return quoted(String(tag)) + ":" + format(member.value, as: nil)
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }

    // MARK: - Scalars

    static func parseUnsigned(_ text: String) -> UInt64? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return UInt64(lower.dropFirst(2), radix: 16) }
        if lower.hasPrefix("+") { return UInt64(lower.dropFirst()) }
        return UInt64(lower)
    }

    private static func unsigned(_ text: String, bits: Int, type: ClusterDataType, context: String)
        throws(ClusterSchemaError) -> UInt64
    {
        guard let value = parseUnsigned(text) else {
            if text.hasPrefix("-") || Int64(text) != nil {
                throw .outOfRange(text, type: type.description, for: context)
            }
            throw .invalidValue(text, expected: type.description, for: context)
        }
        guard bits >= 64 || value < (UInt64(1) << UInt64(bits)) else {
            throw .outOfRange(text, type: type.description, for: context)
        }
        return value
    }

    private static func signed(_ text: String, bits: Int, type: ClusterDataType, context: String)
        throws(ClusterSchemaError) -> Int64
    {
        let value: Int64
        if let parsed = Int64(text) {
            value = parsed
        } else if text.lowercased().hasPrefix("0x"), let parsed = Int64(text.dropFirst(2), radix: 16) {
            value = parsed
        } else if text.lowercased().hasPrefix("-0x"), let parsed = Int64(text.dropFirst(3), radix: 16) {
            value = -parsed
        } else {
            throw .invalidValue(text, expected: type.description, for: context)
        }
        if bits < 64 {
            let limit = Int64(1) << Int64(bits - 1)
            guard value >= -limit, value < limit else { throw .outOfRange(text, type: type.description, for: context) }
        }
        return value
    }

    private static func octets(_ text: String, context: String) throws(ClusterSchemaError) -> [UInt8] {
        guard text.hasPrefix("hex:") else { return Array(text.utf8) }
        guard let bytes = Hex.decode(String(text.dropFirst(4))) else {
            throw .invalidValue(text, expected: "hex:<even number of hex digits>", for: context)
        }
        return bytes
    }

    private static func checkLength(_ length: Int, max: Int?, type: ClusterDataType, context: String)
        throws(ClusterSchemaError)
    {
        if let max, length > max { throw .outOfRange("length \(length)", type: type.description, for: context) }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension CLIJSON {
    /// A short rendering for error messages.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let v): v ? "true" : "false"
        case .number(let v): v
        case .string(let v): ClusterValueCodec.quoted(v)
        case .array: "[...]"
        case .object: "{...}"
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
