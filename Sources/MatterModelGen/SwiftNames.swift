/// Swift and chip-tool spellings of the specification's names (the same rules as MatterClusters' SchemaNames).
enum SwiftNames {
    /// `FabricIndex` → `fabricIndex`, `NOCSRElements` → `nocsrElements`, `ICAC` → `icac`, `VendorID` → `vendorID`.
    static func lowerCamel(_ name: String) -> String {
        let cleaned = String(name.filter { $0.isLetter || $0.isNumber || $0 == "_" })
        let characters = Array(cleaned)
        var run = 0
        while run < characters.count, characters[run].isUppercase { run += 1 }
        var out: String
        if run == 0 {
            out = cleaned
        } else if run > 1, String(characters[run...]) == "s" {
            out = cleaned.lowercased()  // a plural acronym: NOCs → nocs
        } else {
            var lowered = run
            if run > 1, run < characters.count, characters[run].isLowercase || characters[run].isNumber {
                lowered = run - 1
            }
            out = String(characters[..<lowered]).lowercased() + String(characters[lowered...])
        }
        if out.first?.isNumber == true { out = "_" + out }
        return escaped(out)
    }

    /// `StartUpOnOffEnum` stays; names that are not identifiers lose what is not a letter or digit.
    static func upperCamel(_ name: String) -> String {
        var out = String(name.filter { $0.isLetter || $0.isNumber || $0 == "_" })
        if let first = out.first, first.isLowercase { out = first.uppercased() + out.dropFirst() }
        if out.first?.isNumber == true { out = "_" + out }
        return out
    }

    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "Type", "Protocol",
    ]

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value > 0x7E {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `0x001F`: four hex digits at least.
    static func hex(_ value: Int64, digits: Int = 4) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
