import MatterCore
import MatterTLV

/// Values as Home Assistant's Matter servers record them: the JSON form of the TLV a device sent, without
/// the types (numbers are numbers, structs are objects keyed by context tag, octet strings are base64).
/// Reading them back takes the model's type of the attribute where it has one; values of elements the
/// model does not know (a vendor's) are read by their JSON kind, so an octet string of a vendor attribute
/// comes back as a character string (the project's own format keeps the TLV and has no such loss).
enum RecordedJSON {
    /// Why a value does not fit its type (the reader falls back to the value's JSON kind and warns).
    struct Misfit: Error {
        let reason: String
    }

    /// `json` as a value of `type` (nil: the value's own JSON kind).
    static func decode(_ json: CLIJSON, as type: ClusterDataType?, nullable: Bool) throws(Misfit) -> TLVValue {
        guard let type else { return try infer(json) }
        if json == .null {
            guard nullable else { throw Misfit(reason: "null where \(type) is not nullable") }
            return .null
        }
        switch (type, json) {
        case (.boolean, .bool(let value)):
            return .bool(value)
        case (.unsigned(let bits), .number(let text)), (.enumeration(let bits), .number(let text)),
            (.bitmap(let bits), .number(let text)):
            guard let value = UInt64(text), bits >= 64 || value < UInt64(1) << UInt64(bits) else {
                throw Misfit(reason: "\(text) is not a \(type)")
            }
            return .unsigned(value)
        case (.signed(let bits), .number(let text)):
            guard let value = Int64(text) else { throw Misfit(reason: "\(text) is not an \(type)") }
            if bits < 64 {
                let limit = Int64(1) << Int64(bits - 1)
                guard value >= -limit, value < limit else { throw Misfit(reason: "\(text) is not an \(type)") }
            }
            return .signed(value)
        case (.float, .number(let text)):
            guard let value = Float(text) else { throw Misfit(reason: "\(text) is not a number") }
            return .float(value)
        case (.double, .number(let text)):
            guard let value = Double(text) else { throw Misfit(reason: "\(text) is not a number") }
            return .double(value)
        case (.string(let max), .string(let text)):
            if let max, text.utf8.count > max { throw Misfit(reason: "longer than \(max) bytes") }
            return .utf8(text)
        case (.octets(let max), .string(let text)):
            guard let bytes = Base64.decode(text) else { throw Misfit(reason: "octet string not in base64") }
            if let max, bytes.count > max { throw Misfit(reason: "longer than \(max) bytes") }
            return .bytes(bytes)
        case (.list(let element), .array(let items)):
            var members: [TLVElement] = []
            for item in items { members.append(TLVElement(try decode(item, as: element, nullable: false))) }
            return .array(members)
        case (.structure(let schema), .object(let pairs)):
            var members: [TLVElement] = []
            for (key, value) in pairs {
                guard let tag = UInt8(key) else { throw Misfit(reason: "struct field \"\(key)\" is not a tag") }
                let field = schema.field(tag: tag)
                do {
                    members.append(
                        TLVElement(
                            tag: .context(tag),
                            try decode(value, as: field?.type, nullable: field?.isNullable ?? true)))
                } catch {
                    throw Misfit(reason: "\(schema.name).\(field?.name ?? String(tag)): \(error.reason)")
                }
            }
            return .structure(members)
        default:
            throw Misfit(reason: "\(json.summary) is not a \(type)")
        }
    }

    /// `json` by its own kind: integers as unsigned (signed when negative), other numbers as doubles,
    /// strings as character strings, objects as structs keyed by context tag.
    static func infer(_ json: CLIJSON) throws(Misfit) -> TLVValue {
        switch json {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text):
            if let value = UInt64(text) { return .unsigned(value) }
            if let value = Int64(text) { return .signed(value) }
            guard let value = Double(text) else { throw Misfit(reason: "\(text) is not a number") }
            return .double(value)
        case .string(let text): return .utf8(text)
        case .array(let items):
            var members: [TLVElement] = []
            for item in items { members.append(TLVElement(try infer(item))) }
            return .array(members)
        case .object(let pairs):
            var members: [TLVElement] = []
            for (key, value) in pairs {
                guard let tag = UInt8(key) else { throw Misfit(reason: "struct field \"\(key)\" is not a tag") }
                members.append(TLVElement(tag: .context(tag), try infer(value)))
            }
            return .structure(members)
        }
    }

    /// The JSON Home Assistant's servers write for `value`.
    static func encode(_ value: TLVValue) -> String {
        switch value {
        case .bytes(let v): return ClusterValueCodec.quoted(Base64.encode(v))
        case .array(let members), .list(let members):
            return "[" + members.map { encode($0.value) }.joined(separator: ", ") + "]"
        case .structure(let members):
            let fields = members.map { member in
                ClusterValueCodec.quoted(member.tag.contextNumber.map(String.init) ?? member.tag.description) + ": "
                    + encode(member.value)
            }
            return "{" + fields.joined(separator: ", ") + "}"
        default:
            return ClusterValueCodec.format(value, as: nil)  // scalars are written alike
        }
    }
}

extension TLVTag {
    /// The number of a context tag, nil for other tags.
    var contextNumber: Int? {
        if case .context(let number) = self { Int(number) } else { nil }
    }
}
