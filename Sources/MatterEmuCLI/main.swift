#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Every command of the tool; the longest matching path wins.
let allCommands: [CommandSpec] =
    ([
        PayloadParseCommand.self,
        PayloadGenerateCommand.self,
        DiscoverCommand.self,
        DoctorCommand.self,
        DeviceCommand.self,
        FleetCommand.self,
        FleetCodesCommand.self,
        CtlCommand.self,
    ] as [any CLICommand.Type]).map { CommandSpec($0) } + ModelCommands.all
    // Commissioner and controller commands (docs/CLI.md), then every cluster of the model.
    + ControllerCommands.all

let code = await CommandLineTool(commands: allCommands).run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
