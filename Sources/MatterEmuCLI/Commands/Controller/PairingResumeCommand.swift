import MatterController
import MatterCore

/// `matter-emu pairing resume`: settles commissionings a crash interrupted.
struct PairingResumeCommand: CLICommand {
    static let path = ["pairing", "resume"]
    static let summary = "finish or forget commissionings a crash interrupted between AddNOC and the store write"
    static let options = ControllerOptions.network
    static let positionals: [PositionalSpec] = []
    static let discussion = """
        A commissioning records its node just before AddNOC and turns the record into a node once
        CommissioningComplete succeeded. A record left by a crash is settled here (and before every
        'pairing' command): CASE with the device on our fabric, then CommissioningComplete. If the
        device has our fabric (pending or committed), the commissioning is finished and the node
        stored; if it does not, its fail-safe rolled back, it is commissionable again, and the record
        is dropped. A device that does not answer keeps its record for the next run.
        Exit 0 unless a device did not answer (7) or another failure occurred.
        """
    let context: ControllerContext
    let output: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
    }

    func run() async throws -> ExitCode {
        let outcomes = try await context.withController { controller in
            if let address = context.address {
                for nodeID in try Controller.interruptedCommissionings(in: controller.store) {
                    await controller.setAddress(address, for: nodeID)
                }
            }
            return await controller.resumeInterruptedCommissionings()
        }
        Self.report(outcomes, to: output, asJSON: output.json)
        for outcome in outcomes {
            switch outcome.outcome {
            case .unreachable: return .unreachable
            case .failed(let error): return error.exitCode
            default: continue
            }
        }
        return .success
    }

    /// One line per record on stderr, or (`asJSON`) one JSON document on stdout.
    static func report(_ outcomes: [ResumedCommissioning], to output: CLIContext, asJSON: Bool) {
        if asJSON {
            let entries: [JSONValue] = outcomes.map {
                .object([("node", $0.nodeID.json), ("outcome", .string(name($0.outcome)))])
            }
            output.output.printJSON(.object([("resumed", .array(entries))]))
            return
        }
        if outcomes.isEmpty { output.output.progress("no interrupted commissioning") }
        for outcome in outcomes {
            let node = outcome.nodeID.rawValue
            switch outcome.outcome {
            case .completed:
                output.output.progress("interrupted commissioning of node \(node): finished, node stored")
            case .alreadyStored:
                output.output.progress("interrupted commissioning of node \(node): the node was stored already")
            case .rolledBack:
                output.output.progress(
                    "interrupted commissioning of node \(node): rolled back on the device "
                        + "(commissionable again); forgotten")
            case .unreachable(let why):
                output.output.progress("interrupted commissioning of node \(node): device unreachable, kept (\(why))")
            case .inProgress:
                output.output.progress("commissioning of node \(node): still running in another process, left alone")
            case .failed(let error):
                output.output.progress("interrupted commissioning of node \(node): \(error), kept")
            }
        }
    }

    static func name(_ outcome: ResumedCommissioning.Outcome) -> String {
        switch outcome {
        case .completed: "completed"
        case .alreadyStored: "already-stored"
        case .rolledBack: "rolled-back"
        case .unreachable: "unreachable"
        case .inProgress: "in-progress"
        case .failed: "failed"
        }
    }
}
