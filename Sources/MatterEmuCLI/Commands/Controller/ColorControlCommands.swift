import MatterController
import MatterCore

/// `matter-emu colorcontrol move-to-color-temperature <mireds> <transition> <mask> <override> <node|group> [<endpoint>]`.
struct ColorMoveToColorTemperatureCommand: CLICommand {
    static let path = ["colorcontrol", "move-to-color-temperature"]
    static let summary = "set the colour temperature (ColorControl.MoveToColorTemperature)"
    static let options = ControllerOptions.network
    static let positionals: [PositionalSpec] =
        [
            .required("mireds", "colour temperature in mireds (1000000 / kelvin)"),
            .required("transition", "transition time in tenths of a second"),
            .required("mask", "OptionsMask (bit 0 ExecuteIfOff)"),
            .required("override", "OptionsOverride"),
        ] + TargetArguments.positionals
    static let discussion =
        "example (about 3000 K):\n  matter-emu colorcontrol move-to-color-temperature 333 0 0 0 \"Desk lamp\""
    let target: TargetArguments
    let mireds: UInt16
    let transition: UInt16
    let mask: UInt8
    let override: UInt8

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(
            arguments, context, command: Self.pathString, label: "ColorControl.MoveToColorTemperature", leading: 4)
        mireds = try target.value(0, "mireds", command: Self.pathString)
        transition = try target.value(1, "transition", command: Self.pathString)
        mask = try target.value(2, "mask", command: Self.pathString)
        override = try target.value(3, "override", command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        let (mireds, transition, mask, override) = (mireds, transition, mask, override)
        return try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.moveToColorTemperature(
                node, mireds: mireds, transitionTime: transition, optionsMask: mask, optionsOverride: override,
                endpoint: endpoint)
        }
    }
}
