import MatterController
import MatterCore

/// `matter-emu onoff on <node|group> [<endpoint>]`.
struct OnOffOnCommand: CLICommand {
    static let path = ["onoff", "on"]
    static let summary = "turn a node or group on (OnOff.On)"
    static let options = ControllerOptions.network
    static let positionals = TargetArguments.positionals
    static let discussion =
        "example:\n  matter-emu onoff on \"Desk lamp\"\n  matter-emu onoff on 5 1 --address 192.0.2.7:5540"
    let target: TargetArguments

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(arguments, context, command: Self.pathString, label: "OnOff.On")
    }

    func run() async throws -> ExitCode {
        try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.on(node, endpoint: endpoint)
        }
    }
}

/// `matter-emu onoff off <node|group> [<endpoint>]`.
struct OnOffOffCommand: CLICommand {
    static let path = ["onoff", "off"]
    static let summary = "turn a node or group off (OnOff.Off)"
    static let options = ControllerOptions.network
    static let positionals = TargetArguments.positionals
    let target: TargetArguments

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(arguments, context, command: Self.pathString, label: "OnOff.Off")
    }

    func run() async throws -> ExitCode {
        try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.off(node, endpoint: endpoint)
        }
    }
}

/// `matter-emu onoff toggle <node|group> [<endpoint>]`.
struct OnOffToggleCommand: CLICommand {
    static let path = ["onoff", "toggle"]
    static let summary = "toggle a node or group (OnOff.Toggle)"
    static let options = ControllerOptions.network
    static let positionals = TargetArguments.positionals
    let target: TargetArguments

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(arguments, context, command: Self.pathString, label: "OnOff.Toggle")
    }

    func run() async throws -> ExitCode {
        try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.toggle(node, endpoint: endpoint)
        }
    }
}

/// `matter-emu onoff off-with-effect <effect> <variant> <node|group> [<endpoint>]`.
struct OnOffOffWithEffectCommand: CLICommand {
    static let path = ["onoff", "off-with-effect"]
    static let summary = "turn off with an effect (OnOff.OffWithEffect)"
    static let options = ControllerOptions.network
    static let positionals: [PositionalSpec] =
        [
            .required("effect", "EffectIdentifier: 0 DelayedAllOff, 1 DyingLight"),
            .required("variant", "EffectVariant (DelayedAllOff: 0 fade, 1 no fade, 2 dim then fade; DyingLight: 0)"),
        ] + TargetArguments.positionals
    let target: TargetArguments
    let effect: UInt8
    let variant: UInt8

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(
            arguments, context, command: Self.pathString, label: "OnOff.OffWithEffect", leading: 2)
        effect = try target.value(0, "effect", command: Self.pathString)
        variant = try target.value(1, "variant", command: Self.pathString)
    }

    func run() async throws -> ExitCode {
        let effect = effect
        let variant = variant
        return try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.offWithEffect(node, effect: effect, variant: variant, endpoint: endpoint)
        }
    }
}
