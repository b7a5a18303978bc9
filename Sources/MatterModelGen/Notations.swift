import Foundation

/// The specification's access notation (Matter Core 7.6: `R V`, `RW VO`, `R[W] VM`, `RW F A`, `O T`, `S A`).
struct Access {
    var readable = false
    var writable = false
    var fabricScoped = false
    var fabricSensitive = false
    var timed = false
    /// Privilege letters (V, O, M, A, P), read first then write.
    var privileges: [Character] = []

    init(_ text: String?) {
        for token in (text ?? "").split(separator: " ") {
            switch token {
            case "R": readable = true
            case "W": writable = true
            case "RW", "R[W]": (readable, writable) = (true, true)
            case "F": fabricScoped = true
            case "S": fabricSensitive = true
            case "T": timed = true
            default: privileges = Array(token).filter { "VOMAP".contains($0) }
            }
        }
    }

    /// The Swift source of a privilege letter.
    static func privilege(_ letter: Character?) -> String? {
        switch letter {
        case "V": ".view"
        case "P": ".proxyView"
        case "O": ".operate"
        case "M": ".manage"
        case "A": ".administer"
        default: nil
        }
    }

    var readPrivilege: String { Self.privilege(privileges.first) ?? ".view" }
    var writePrivilege: String { Self.privilege(privileges.count > 1 ? privileges[1] : privileges.first) ?? ".operate" }
    /// A command's invoke privilege (default operate).
    var invokePrivilege: String { Self.privilege(privileges.first) ?? ".operate" }
}

/// The specification's quality notation (Matter Core 7.7): `X` nullable, `N` non-volatile, `F` fixed,
/// `S` scene, `C` changes omitted, `Q` quieter reporting, `A` atomic, `L` large message, `K` and others kept
/// by letter.
struct Quality {
    var letters: Set<Character>

    init(_ text: String?) { letters = Set((text ?? "").filter { $0.isLetter }) }

    var nullable: Bool { letters.contains("X") }

    /// The Swift source of the AttributeQuality option set (without nullability, which has its own flag).
    var swiftSource: String {
        let names: [(Character, String)] = [
            ("N", ".nonVolatile"), ("F", ".fixed"), ("S", ".scene"), ("C", ".changesOmitted"),
            ("Q", ".quieterReporting"), ("A", ".atomic"), ("L", ".largeMessage"), ("I", ".singleton"),
            ("K", ".diagnostics"),
        ]
        let set = names.filter { letters.contains($0.0) }.map(\.1)
        return "[\(set.joined(separator: ", "))]"
    }
}

/// The numeric part of the specification's constraint notation (Matter Core 7.18): `max 32`, `min 1`,
/// `0 to 254`, `-2^62 to 2^62`, an exact value, and an entry constraint in brackets for lists
/// (`max 32[max 64]`). Bounds that name other attributes (`minLevel to maxLevel`) and `desc` give no bound.
struct Constraint {
    var min: Int64?
    var max: Int64?
    var entry: String?

    init(_ text: String?) {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return }
        if let open = text.firstIndex(of: "["), text.hasSuffix("]") {
            entry = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            text = String(text[..<open])
        }
        if let brace = text.firstIndex(of: "{") { text = String(text[..<brace]) }
        let words = text.split(separator: " ").map(String.init)
        if words.count == 2, words[0] == "max" {
            max = Self.number(words[1])
        } else if words.count == 2, words[0] == "min" {
            min = Self.number(words[1])
        } else if words.count == 3, words[1] == "to" {
            min = Self.number(words[0])
            max = Self.number(words[2])
        } else if words.count == 1, let exact = Self.number(words[0]) {
            (min, max) = (exact, exact)
        }
    }

    static func number(_ text: String) -> Int64? {
        var text = text
        var sign: Int64 = 1
        if text.hasPrefix("-") {
            sign = -1
            text.removeFirst()
        }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int64(text.dropFirst(2), radix: 16).map { $0 * sign } }
        if let caret = text.firstIndex(of: "^"), let base = Int64(text[..<caret]),
            let exponent = Int64(text[text.index(after: caret)...]), exponent < 63
        {
            var value: Int64 = 1
            for _ in 0..<exponent { value *= base }
            return value * sign
        }
        return Int64(text).map { $0 * sign }
    }

    var swiftSource: String? {
        guard min != nil || max != nil else { return nil }
        return "ValueConstraint(min: \(min.map(String.init) ?? "nil"), max: \(max.map(String.init) ?? "nil"))"
    }
}
