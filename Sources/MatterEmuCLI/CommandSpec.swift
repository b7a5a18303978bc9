/// What a command line becomes once its arguments are checked: something to run.
protocol RunnableCommand {
    func run() async throws -> ExitCode
}

/// One leaf command of `matter-emu` as a value: its words, help and how to build it from parsed arguments.
/// Commands written as types (``CLICommand``) and the commands made for every cluster of the model (`<cluster>
/// read`, `<cluster> <command>`) are both specs, so the tool finds, parses and documents them alike.
struct CommandSpec {
    /// Words after `matter-emu`, e.g. `["payload", "parse"]`.
    let path: [String]
    let summary: String
    let options: [OptionSpec]
    let positionals: [PositionalSpec]
    /// Extra paragraphs for `--help`.
    let discussion: String
    /// Commands of one cluster share a group: the top-level help shows the group once, not each command.
    let group: String?
    let make: (ParsedArguments, CLIContext) throws -> any RunnableCommand

    init(
        path: [String], summary: String, options: [OptionSpec], positionals: [PositionalSpec],
        discussion: String = "", group: String? = nil,
        make: @escaping (ParsedArguments, CLIContext) throws -> any RunnableCommand
    ) {
        self.path = path
        self.summary = summary
        self.options = options
        self.positionals = positionals
        self.discussion = discussion
        self.group = group
        self.make = make
    }

    init<Command: CLICommand>(_ type: Command.Type, group: String? = nil) {
        self.init(
            path: type.path, summary: type.summary, options: type.options, positionals: type.positionals,
            discussion: type.discussion, group: group, make: { try Command(arguments: $0, context: $1) })
    }

    var pathString: String { path.joined(separator: " ") }
}
