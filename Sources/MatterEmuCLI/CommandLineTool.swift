import MatterCore

/// Finds the command named by the leading words of the command line, parses its arguments, runs it
/// and maps every error to its exit code and one clear line (or a JSON error document with `--json`).
struct CommandLineTool {
    let commands: [any CLICommand.Type]
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
            return report(UsageError("unknown command '\(words.joined(separator: " "))'"), json: wantsJSON)
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
            let instance = try command.init(arguments: arguments, context: context)
            return try await instance.run()
        } catch {
            return report(error, json: wantsJSON)
        }
    }

    private func checkArity(_ arguments: ParsedArguments, _ command: any CLICommand.Type) throws(UsageError) {
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
