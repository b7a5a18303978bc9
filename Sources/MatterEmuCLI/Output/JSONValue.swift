/// A JSON document for `--json` output: objects keep their key order so output is stable.
enum JSONValue: Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case bool(Bool)
    case null

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// Compact (one line) or pretty (two-space indent) serialization.
    func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(into out: inout String, indent: Int?) {
        switch self {
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .int(let v): out += String(v)
        case .uint(let v): out += String(v)
        case .double(let v): out += v.isFinite ? String(v) : "null"
        case .bool(let v): out += v ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, into: &out, indent: indent) { i, out, inner in
                items[i].write(into: &out, indent: inner)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, into: &out, indent: indent) { i, out, inner in
                JSONValue.writeString(members[i].0, into: &out)
                out += inner == nil ? ":" : ": "
                members[i].1.write(into: &out, indent: inner)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, into out: inout String, indent: Int?,
        item: (Int, inout String, Int?) -> Void
    ) {
        out += open
        guard count > 0 else {
            out += close
            return
        }
        let inner = indent.map { $0 + 2 }
        for i in 0..<count {
            if i > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: " ", count: inner) }
            item(i, &out, inner)
        }
        if let indent { out += "\n" + String(repeating: " ", count: indent) }
        out += close
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u00" + (c.value < 0x10 ? "0" : "") + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
