import MatterController
import MatterCore

/// `--pin-code` of the door-lock commands, as octets.
enum PINCodeOption {
    static let spec = OptionSpec.value("pin-code", "DIGITS", "PIN code, for locks that require one")

    static func parse(_ arguments: ParsedArguments) -> [UInt8]? { arguments.value("pin-code").map { Array($0.utf8) } }
}

/// `matter-emu doorlock lock-door <node|group> [<endpoint>]` (a timed invoke).
struct DoorLockLockCommand: CLICommand {
    static let path = ["doorlock", "lock-door"]
    static let summary = "lock a door lock (DoorLock.LockDoor, timed)"
    static let options = ControllerOptions.network + [PINCodeOption.spec]
    static let positionals = TargetArguments.positionals
    let target: TargetArguments
    let pin: [UInt8]?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(arguments, context, command: Self.pathString, label: "DoorLock.LockDoor")
        pin = PINCodeOption.parse(arguments)
    }

    func run() async throws -> ExitCode {
        let pin = pin
        return try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.lockDoor(node, pinCode: pin, endpoint: endpoint)
        }
    }
}

/// `matter-emu doorlock unlock-door <node|group> [<endpoint>]` (a timed invoke).
struct DoorLockUnlockCommand: CLICommand {
    static let path = ["doorlock", "unlock-door"]
    static let summary = "unlock a door lock (DoorLock.UnlockDoor, timed)"
    static let options = ControllerOptions.network + [PINCodeOption.spec]
    static let positionals = TargetArguments.positionals
    let target: TargetArguments
    let pin: [UInt8]?

    init(arguments: ParsedArguments, context: CLIContext) throws {
        target = try TargetArguments(arguments, context, command: Self.pathString, label: "DoorLock.UnlockDoor")
        pin = PINCodeOption.parse(arguments)
    }

    func run() async throws -> ExitCode {
        let pin = pin
        return try await target.runner.run(target.target, endpoint: target.endpoint) {
            controller, node, endpoint throws(ControllerError) in
            try await controller.unlockDoor(node, pinCode: pin, endpoint: endpoint)
        }
    }
}
