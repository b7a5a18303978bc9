import MatterController
import MatterCore

/// The four values of LevelControl's MoveToLevel commands.
struct MoveToLevelArguments {
    static let positionals: [PositionalSpec] =
        [
            .required("level", "level 0...254"),
            .required("transition", "transition time in tenths of a second, or null for the device's default"),
            .required("mask", "OptionsMask (bit 0 ExecuteIfOff)"),
            .required("override", "OptionsOverride"),
        ] + TargetArguments.positionals

    let target: TargetArguments
    let level: UInt8
    let transition: UInt16?
    let mask: UInt8
    let override: UInt8

    init(_ arguments: ParsedArguments, _ context: CLIContext, command: String, label: String) throws {
        target = try TargetArguments(arguments, context, command: command, label: label, leading: 4)
        level = try target.value(0, "level", command: command)
        guard level <= 254 else { throw UsageError("<level> \(level) is out of range (0...254)", command: command) }
        transition = target.values[1].lowercased() == "null" ? nil : try target.value(1, "transition", command: command)
        mask = try target.value(2, "mask", command: command)
        override = try target.value(3, "override", command: command)
    }

    func run(withOnOff: Bool) async throws -> ExitCode {
        let (level, transition, mask, override) = (level, transition, mask, override)
        return try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.moveToLevel(
                node, level: level, transitionTime: transition, optionsMask: mask, optionsOverride: override,
                withOnOff: withOnOff, endpoint: endpoint)
        }
    }
}

/// `matter-emu levelcontrol move-to-level <level> <transition> <mask> <override> <node|group> [<endpoint>]`.
struct LevelMoveToLevelCommand: CLICommand {
    static let path = ["levelcontrol", "move-to-level"]
    static let summary = "move to a level (LevelControl.MoveToLevel)"
    static let options = ControllerOptions.network
    static let positionals = MoveToLevelArguments.positionals
    static let discussion = "example:\n  matter-emu levelcontrol move-to-level 77 0 0 0 5 1"
    let values: MoveToLevelArguments

    init(arguments: ParsedArguments, context: CLIContext) throws {
        values = try MoveToLevelArguments(
            arguments, context, command: Self.pathString, label: "LevelControl.MoveToLevel")
    }

    func run() async throws -> ExitCode { try await values.run(withOnOff: false) }
}

/// `matter-emu levelcontrol move-to-level-with-on-off ...`.
struct LevelMoveToLevelWithOnOffCommand: CLICommand {
    static let path = ["levelcontrol", "move-to-level-with-on-off"]
    static let summary = "move to a level, turning on or off (LevelControl.MoveToLevelWithOnOff)"
    static let options = ControllerOptions.network
    static let positionals = MoveToLevelArguments.positionals
    let values: MoveToLevelArguments

    init(arguments: ParsedArguments, context: CLIContext) throws {
        values = try MoveToLevelArguments(
            arguments, context, command: Self.pathString, label: "LevelControl.MoveToLevelWithOnOff")
    }

    func run() async throws -> ExitCode { try await values.run(withOnOff: true) }
}
