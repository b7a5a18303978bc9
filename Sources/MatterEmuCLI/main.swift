#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Every command of the tool; the longest matching path wins.
let allCommands: [any CLICommand.Type] =
    [
        PayloadParseCommand.self,
        PayloadGenerateCommand.self,
        DiscoverCommand.self,
        DeviceCommand.self,
        FleetCommand.self,
        CtlCommand.self,
        // Commissioner and controller commands (docs/CLI.md).
    ] + ControllerCommands.all

let code = await CommandLineTool(commands: allCommands).run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
