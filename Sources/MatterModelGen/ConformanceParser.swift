import Foundation

/// Parses the specification's conformance notation (Matter Core 7.3: `M`, `O`, `P`, `D`, `X`, `desc`,
/// feature and element names, `!`, `&`, `|`, `^`, parentheses, `[optional]`, `.a` / `.a+` choices and
/// `otherwise` lists separated by commas) into the Swift source of a `Conformance` value.
struct ConformanceParser {
    enum Failure: Error, CustomStringConvertible {
        case unexpected(String, in: String)
        var description: String {
            switch self {
            case .unexpected(let token, let text): "unexpected '\(token)' in conformance '\(text)'"
            }
        }
    }

    private let text: String
    private var tokens: [String]
    private var position = 0

    init(_ text: String) {
        self.text = text
        tokens = Self.tokenize(text)
    }

    /// The Swift source of the conformance, e.g. `.optionalIf(.not(.name("OFFONLY")))`.
    static func swiftSource(_ text: String?) throws -> String {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return ".mandatory" }
        var parser = ConformanceParser(text)
        return try parser.parseList()
    }

    private static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        let scalars = Array(text)
        var index = 0
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        while index < scalars.count {
            let c = scalars[index]
            if c.isLetter || c.isNumber || c == "_" {
                current.append(c)
            } else {
                flush()
                if c == " " {
                } else if "=!<>".contains(c), index + 1 < scalars.count, scalars[index + 1] == "=" {
                    tokens.append(String(c) + "=")
                    index += 1
                } else {
                    tokens.append(String(c))
                }
            }
            index += 1
        }
        flush()
        return tokens
    }

    private var peek: String? { position < tokens.count ? tokens[position] : nil }

    private mutating func next() -> String? {
        defer { position += 1 }
        return peek
    }

    private mutating func expect(_ token: String) throws {
        guard next() == token else { throw Failure.unexpected(peek ?? "end", in: text) }
    }

    private mutating func parseList() throws -> String {
        var terms = [try parseTerm()]
        while peek == "," {
            position += 1
            terms.append(try parseTerm())
        }
        guard peek == nil else { throw Failure.unexpected(peek ?? "", in: text) }
        return terms.count == 1 ? terms[0] : ".otherwise([\(terms.joined(separator: ", "))])"
    }

    private mutating func parseTerm() throws -> String {
        var term: String
        if peek == "[" {
            position += 1
            let condition = try parseOr()
            try expect("]")
            term = ".optionalIf(\(condition))"
        } else {
            let start = position
            let word = next()
            let ends = peek == nil || peek == "," || peek == "."
            switch (word, ends) {
            case ("M", true): term = ".mandatory"
            case ("O", true): term = ".optional"
            case ("P", true): term = ".provisional"
            case ("D", true): term = ".deprecated"
            case ("X", true): term = ".disallowed"
            case ("desc", true): term = ".described"
            default:
                position = start
                term = ".mandatoryIf(\(try parseOr()))"
            }
        }
        if peek == "." {
            position += 1
            guard var choice = next() else { throw Failure.unexpected("end", in: text) }
            if let suffix = peek, suffix == "+" || suffix == "-" {
                position += 1
                choice += suffix
            }
            term = ".choice(\(term), \"\(choice)\")"
        }
        return term
    }

    private mutating func parseOr() throws -> String {
        var left = try parseXor()
        while peek == "|" {
            position += 1
            left = ".or(\(left), \(try parseXor()))"
        }
        return left
    }

    private mutating func parseXor() throws -> String {
        var left = try parseAnd()
        while peek == "^" {
            position += 1
            left = ".xor(\(left), \(try parseAnd()))"
        }
        return left
    }

    private mutating func parseAnd() throws -> String {
        var left = try parseUnary()
        while peek == "&" {
            position += 1
            left = ".and(\(left), \(try parseUnary()))"
        }
        return left
    }

    private mutating func parseUnary() throws -> String {
        if peek == "!" {
            position += 1
            return ".not(\(try parseUnary()))"
        }
        if peek == "(" {
            position += 1
            let inner = try parseOr()
            try expect(")")
            return inner
        }
        guard let name = next(), name.first?.isLetter == true || name.first == "_" else {
            throw Failure.unexpected(tokens.indices.contains(position - 1) ? tokens[position - 1] : "end", in: text)
        }
        if let op = peek, ["==", "!=", ">=", "<=", ">", "<"].contains(op) {
            position += 1
            guard let value = next() else { throw Failure.unexpected("end", in: text) }
            return ".comparison(\"\(name) \(op) \(value)\")"
        }
        return ".name(\"\(name)\")"
    }
}
