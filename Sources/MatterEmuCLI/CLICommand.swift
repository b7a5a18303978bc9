import MatterCore

/// One leaf command of `matter-emu` (e.g. `payload parse`). The type describes its arguments for
/// parsing and help; `init(arguments:context:)` validates them (usage errors, exit 2) before `run()`.
protocol CLICommand: RunnableCommand {
    /// Words after `matter-emu`, e.g. `["payload", "parse"]`.
    static var path: [String] { get }
    static var summary: String { get }
    static var options: [OptionSpec] { get }
    static var positionals: [PositionalSpec] { get }
    /// Extra paragraphs for `--help` (examples, notes).
    static var discussion: String { get }

    init(arguments: ParsedArguments, context: CLIContext) throws
}

extension CLICommand {
    static var discussion: String { "" }
    static var pathString: String { path.joined(separator: " ") }
}

/// What every command gets besides its arguments: output format and where output goes.
struct CLIContext {
    /// `--json`: one JSON document on stdout (JSON lines for streams) instead of text.
    let json: Bool
    let output: OutputSink
}

/// Options every command accepts.
enum GlobalOptions {
    static let specs: [OptionSpec] = [
        .flag("json", "print one JSON document on stdout instead of text"),
        .value("log-level", "LEVEL", "trace, debug, info, notice (default), warning or error"),
        .flag("help", "show this help"),
    ]
}
