/// One `--option` a command accepts: a flag (no value) or an option that takes a value.
struct OptionSpec: Sendable {
    /// Long name without the dashes, e.g. `passcode`.
    let name: String
    /// Placeholder shown in help for the value (`N`, `PATH`...); nil for a flag.
    let valueName: String?
    /// One-line help text.
    let help: String
    /// True when the option may be given several times (values accumulate).
    let repeatable: Bool

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, repeatable: false)
    }

    static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable)
    }

    var takesValue: Bool { valueName != nil }
}

/// A positional argument, for help and arity checks.
struct PositionalSpec: Sendable {
    let name: String
    let help: String
    let optional: Bool

    static func required(_ name: String, _ help: String) -> PositionalSpec {
        PositionalSpec(name: name, help: help, optional: false)
    }

    static func optional(_ name: String, _ help: String) -> PositionalSpec {
        PositionalSpec(name: name, help: help, optional: true)
    }
}
