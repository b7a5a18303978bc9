/// A small JSON reader for list and struct values typed on the command line (chip-tool takes the same
/// form: `'[{"privilege":5,"authMode":2,"subjects":[112233],"targets":null}]'`). Numbers keep their
/// text so 64-bit integers stay exact; `0x` hexadecimal numbers are accepted as an extension.
enum CLIJSON: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([CLIJSON])
    case object([(key: String, value: CLIJSON)])

    static func == (a: CLIJSON, b: CLIJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Parses one JSON value; trailing non-space text is an error.
    static func parse(_ text: String) throws(ClusterSchemaError) -> CLIJSON {
        var parser = Parser(text: text)
        let value = try parser.value()
        parser.skipSpace()
        guard parser.atEnd else { throw parser.error("unexpected text after the value") }
        return value
    }

    private struct Parser {
        let text: String
        let scalars: [Unicode.Scalar]
        var index = 0

        init(text: String) {
            self.text = text
            scalars = Array(text.unicodeScalars)
        }

        var atEnd: Bool { index >= scalars.count }

        func error(_ reason: String) -> ClusterSchemaError {
            .invalidJSON(text, reason: "\(reason) at character \(index)")
        }

        mutating func skipSpace() {
            while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws(ClusterSchemaError) {
            skipSpace()
            guard index < scalars.count, scalars[index] == scalar else { throw error("expected '\(scalar)'") }
            index += 1
        }

        mutating func value(depth: Int = 0) throws(ClusterSchemaError) -> CLIJSON {
            guard depth < 32 else { throw error("nesting too deep") }
            skipSpace()
            guard index < scalars.count else { throw error("value expected") }
            switch scalars[index] {
            case "{":
                index += 1
                var members: [(key: String, value: CLIJSON)] = []
                skipSpace()
                if index < scalars.count, scalars[index] == "}" {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    try expect(":")
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < scalars.count else { throw error("unterminated object") }
                    if scalars[index] == "," {
                        index += 1
                        continue
                    }
                    if scalars[index] == "}" {
                        index += 1
                        return .object(members)
                    }
                    throw error("expected ',' or '}'")
                }
            case "[":
                index += 1
                var items: [CLIJSON] = []
                skipSpace()
                if index < scalars.count, scalars[index] == "]" {
                    index += 1
                    return .array(items)
                }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < scalars.count else { throw error("unterminated array") }
                    if scalars[index] == "," {
                        index += 1
                        continue
                    }
                    if scalars[index] == "]" {
                        index += 1
                        return .array(items)
                    }
                    throw error("expected ',' or ']'")
                }
            case "\"":
                return .string(try string())
            default:
                var word = ""
                while index < scalars.count, !" \t\n\r,]}:".unicodeScalars.contains(scalars[index]) {
                    word.unicodeScalars.append(scalars[index])
                    index += 1
                }
                switch word {
                case "null": return .null
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "": throw error("value expected")
                default:
                    guard word.first.map({ $0.isNumber || $0 == "-" || $0 == "+" }) == true else {
                        throw error("unknown word '\(word)'")
                    }
                    return .number(word)
                }
            }
        }

        mutating func string() throws(ClusterSchemaError) -> String {
            guard index < scalars.count, scalars[index] == "\"" else { throw error("string expected") }
            index += 1
            var out = String.UnicodeScalarView()
            while index < scalars.count {
                let c = scalars[index]
                index += 1
                switch c {
                case "\"": return String(out)
                case "\\":
                    guard index < scalars.count else { throw error("unterminated escape") }
                    let e = scalars[index]
                    index += 1
                    switch e {
                    case "\"", "\\", "/": out.append(e)
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "b": out.append("\u{08}")
                    case "f": out.append("\u{0C}")
                    case "u":
                        guard index + 4 <= scalars.count,
                            let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else { throw error("bad \\u escape") }
                        index += 4
                        out.append(scalar)
                    default: throw error("bad escape '\\\(e)'")
                    }
                default: out.append(c)
                }
            }
            throw error("unterminated string")
        }
    }
}
