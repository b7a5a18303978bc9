import MatterClusters
import MatterCore
import MatterTLV

/// Attribute and command values as JSON for `--json` output: numbers as numbers, octet strings as
/// `"hex:..."`, struct fields named from the schema (unknown tags by number).
enum TLVJSON {
    static func json(_ value: TLVValue, as type: ClusterDataType?) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let v): return .bool(v)
        case .unsigned(let v): return .uint(v)
        case .signed(let v): return .int(v)
        case .float(let v): return .double(Double(v))
        case .double(let v): return .double(v)
        case .utf8(let v): return .string(v)
        case .bytes(let v): return .string("hex:" + Hex.encode(v))
        case .array(let members), .list(let members):
            var element: ClusterDataType?
            if case .list(let e)? = type { element = e }
            return .array(members.map { json($0.value, as: element) })
        case .structure(let members):
            var schema: StructSchema?
            if case .structure(let s)? = type { schema = s }
            return .object(
                members.map { member in
                    guard case .context(let tag) = member.tag else {
                        return (member.tag.description, json(member.value, as: nil))
                    }
                    if let field = schema?.field(tag: tag) {
                        return (field.jsonName, json(member.value, as: field.type))
                    }
                    return (String(tag), json(member.value, as: nil))
                })
        }
    }
}
