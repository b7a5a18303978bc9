/// The options and positionals of one command line, checked against the command's `OptionSpec`s.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// The command path, for error messages.
    let command: String

    /// Parses `tokens` (everything after the command words). Accepts `--name value`, `--name=value`,
    /// `-h`, and `--` to end options. A token such as `-5` is a positional, not an option.
    init(_ tokens: [String], options: [OptionSpec], command: String) throws(UsageError) {
        self.command = command
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var optionsEnded = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if optionsEnded || !ParsedArguments.looksLikeOption(token) {
                positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            if token == "-h" {
                flags.insert("help")
                continue
            }
            var name = String(token.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard token.hasPrefix("--"), let spec = byName[name] else {
                throw UsageError("unknown option '\(token)' for '\(command)'", command: command)
            }
            if !spec.takesValue {
                if inlineValue != nil {
                    throw UsageError("option '--\(name)' takes no value", command: command)
                }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < tokens.count {
                value = tokens[index]
                index += 1
            } else {
                throw UsageError("option '--\(name)' needs a value (\(spec.valueName ?? "VALUE"))", command: command)
            }
            if values[name] != nil, !spec.repeatable {
                throw UsageError("option '--\(name)' given more than once", command: command)
            }
            values[name, default: []].append(value)
        }
    }

    /// `-x`, `--x`; but not `-`, `-5` or `-0x1F` (negative numbers are values).
    private static func looksLikeOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        let second = token[token.index(after: token.startIndex)]
        return !second.isNumber
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The same options with other positionals (a default filled in).
    func replacingPositionals(_ positionals: [String]) -> ParsedArguments {
        var copy = self
        copy.positionals = positionals
        return copy
    }

    /// The last value given for `name`, or nil.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// An unsigned integer option, decimal or `0x` hex, range-checked against `T`.
    func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ name: String, as _: T.Type = T.self) throws(UsageError)
        -> T?
    {
        guard let text = value(name) else { return nil }
        return try ParsedArguments.parseUnsigned(text, what: "--\(name)", command: command)
    }

    /// A duration in whole seconds within `range`; a fraction, a negative number or anything else is
    /// refused with a message that says whole seconds are wanted.
    func wholeSeconds(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let seconds = Int(text), range.contains(seconds) else {
            throw UsageError(
                "--\(name) expects whole seconds, \(range.lowerBound)...\(range.upperBound), got '\(text)'",
                command: command)
        }
        return seconds
    }

    /// Parses decimal or `0x`-prefixed hexadecimal text into `T`, with a message naming `what`.
    static func parseUnsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ text: String, what: String, command: String
    ) throws(UsageError) -> T {
        let lower = text.lowercased()
        let parsed: T? = lower.hasPrefix("0x") ? T(lower.dropFirst(2), radix: 16) : T(lower, radix: 10)
        guard let parsed else {
            if UInt64(
                lower.hasPrefix("0x") ? String(lower.dropFirst(2)) : lower,
                radix: lower.hasPrefix("0x") ? 16 : 10) != nil
            {
                throw UsageError("\(what) \(text) is out of range (0...\(T.max))", command: command)
            }
            throw UsageError("\(what) expects a number, got '\(text)'", command: command)
        }
        return parsed
    }
}
