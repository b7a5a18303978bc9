import MatterCore

/// Finds the command named by the leading words of the command line, parses its arguments, runs it
/// and maps every error to its exit code and one clear line (or a JSON error document with `--json`).
struct CommandLineTool {
    let commands: [CommandSpec]
    let output = OutputSink()

    func run(_ argv: [String]) async -> ExitCode {
        let wantsJSON = argv.contains("--json")
        if argv.first == "--version" {
            guard argv.dropFirst().allSatisfy({ $0 == "--json" }) else {
                return report(UsageError("--version takes only --json"), json: wantsJSON)
            }
            if wantsJSON { output.printJSON(ToolVersion.json) } else { output.print(ToolVersion.text) }
            return .success
        }
        // Longest command path that prefixes the arguments.
        let match =
            commands
            .filter { argv.starts(with: $0.path) }
            .max { $0.path.count < $1.path.count }
        guard let command = match else {
            let words = Array(argv.prefix { !$0.hasPrefix("-") })
            let group = commands.filter { $0.path.starts(with: words) }
            let asksHelp = argv.isEmpty || argv.contains("--help") || argv.contains("-h") || argv == ["help"]
            let help = HelpFormatter.groupHelp(
                prefix: group.isEmpty ? [] : words, commands: group.isEmpty ? commands : group)
            if asksHelp {
                output.print(help)
                return .success
            }
            if !words.isEmpty && !group.isEmpty {
                // A group without its subcommand is a usage error: the usage goes to stderr with it.
                output.progress(help)
                let name = words.joined(separator: " ")
                return report(UsageError("'\(name)' needs one of the commands above", command: name), json: wantsJSON)
            }
            return report(unknownCommand(words), json: wantsJSON)
        }
        do {
            let tokens = Array(argv.dropFirst(command.path.count))
            let arguments = try ParsedArguments(
                tokens, options: command.options + GlobalOptions.specs,
                command: command.pathString)
            if arguments.has("help") {
                output.print(HelpFormatter.commandHelp(command))
                return .success
            }
            if let level = arguments.value("log-level") {
                guard let parsed = LogLevel(name: level) else {
                    throw UsageError("unknown log level '\(level)'", command: command.pathString)
                }
                Logger.configuration.level = parsed
            }
            try checkArity(arguments, command)
            let context = CLIContext(json: arguments.has("json"), output: output)
            let instance = try command.make(arguments, context)
            return try await instance.run()
        } catch {
            return report(error, json: wantsJSON)
        }
    }

    /// The usage error for words that name no command: the known part, the first wrong word and the known
    /// words nearest to it (`onoff tggle` → toggle; `onof` → onoff).
    private func unknownCommand(_ words: [String]) -> UsageError {
        var known = 0
        while known < words.count, commands.contains(where: { $0.path.starts(with: words.prefix(known + 1)) }) {
            known += 1
        }
        let prefix = Array(words.prefix(known))
        let wrong = words.count > known ? words[known] : ""
        let next = Set(commands.filter { $0.path.starts(with: prefix) && $0.path.count > known }.map { $0.path[known] })
        let near = ModelCommands.nearest(wrong, among: next.sorted())
        let name = (prefix + [wrong]).joined(separator: " ")
        let hint = near.isEmpty ? "" : " (nearest: \(near.joined(separator: ", ")))"
        return UsageError("unknown command '\(name)'\(hint)", command: prefix.joined(separator: " "))
    }

    private func checkArity(_ arguments: ParsedArguments, _ command: CommandSpec) throws(UsageError) {
        let required = command.positionals.filter { !$0.optional }.count
        let given = arguments.positionals.count
        if given < required {
            let missing = command.positionals[given].name
            throw UsageError("missing argument <\(missing)>", command: command.pathString)
        }
        if given > command.positionals.count {
            throw UsageError(
                "unexpected argument '\(arguments.positionals[command.positionals.count])'",
                command: command.pathString)
        }
    }

    private func report(_ error: any Error, json: Bool) -> ExitCode {
        let code = (error as? any ExitCodeProviding)?.exitCode ?? .failure
        let message = String(describing: error)
        var line = "error: \(message)"
        if let usage = error as? UsageError {
            line += "\n(see 'matter-emu \(usage.command.isEmpty ? "" : usage.command + " ")--help')"
        }
        output.progress(line)
        if json {
            output.printJSON(
                .object([
                    ("error", .object([("exitCode", .int(Int64(code.rawValue))), ("message", .string(message))]))
                ]))
        }
        return code
    }
}
