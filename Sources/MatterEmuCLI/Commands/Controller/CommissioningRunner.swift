import MatterController
import MatterCore
import MatterCredentials
import MatterDiscovery
import MatterHome
import MatterOnboarding
import MatterStorage

/// The options every `pairing` command that commissions takes.
enum PairingOptions {
    static let specs: [OptionSpec] =
        ControllerOptions.network + [
            .value("name", "NAME", "a name for the node (unique among nodes and groups)"),
            .value("room", "ROOM", "the room to put the node in"),
            .value(
                "paa-trust-store", "DIR",
                "trust the PAA certificates (*.der, *.pem) in DIR instead of the built-in test PAAs"),
            .flag("skip-attestation", "commission even if device attestation fails (development only; recorded)"),
        ]

    static let discussion = """
        Progress is printed on stderr as a timeline of the commissioning stages, with their durations.
        The built-in PAA trust store holds this project's test PAA and the connectedhomeip SDK's test
        PAAs; --paa-trust-store DIR replaces it.
        """
}

/// Runs a commissioning from a `pairing` command: options, the timeline on stderr, the result on stdout.
struct CommissioningRunner {
    let context: ControllerContext
    let output: CLIContext
    let nodeID: NodeID?
    let name: String?
    let room: String?
    let trustStore: PAATrustStore?
    let skipAttestation: Bool
    /// The test hook's kill point (`MATTER_EMU_TEST_KILL_AT`), if any.
    let killPoint: String?

    init(_ arguments: ParsedArguments, _ output: CLIContext, command: String, nodeID: String) throws {
        context = try ControllerContext(arguments, command: command)
        self.output = output
        self.nodeID = try ControllerContext.newNodeID(nodeID, command: command)
        name = arguments.value("name")
        room = arguments.value("room")
        if let name, !name.contains(where: { !$0.isWhitespace }) {
            throw UsageError("--name cannot be empty", command: command)
        }
        if let name {
            do { try ControllerStore.validateNodeOrGroupName(name) } catch {
                throw UsageError("--name: \(error)", command: command)
            }
        }
        if let room, !room.contains(where: { !$0.isWhitespace }) {
            throw UsageError("--room cannot be empty", command: command)
        }
        if let directory = arguments.value("paa-trust-store") {
            do { trustStore = try DefaultPAATrustStore.load(directory: directory) } catch {
                throw UsageError("--paa-trust-store: \(error)", command: command)
            }
        } else {
            trustStore = nil
        }
        skipAttestation = arguments.has("skip-attestation")
        killPoint = try TestKillHook.requestedPoint(
            known: CommissioningCheckpoint.allCases.map(\.description), command: command)
    }

    /// Parses a setup passcode argument.
    static func passcode(_ text: String, command: String) throws -> UInt32 {
        let value: UInt32 = try ParsedArguments.parseUnsigned(text, what: "<passcode>", command: command)
        try SetupPasscode.validate(value)
        return value
    }

    /// Commissions the device `request` locates (or the one at `--address`).
    func run(_ base: CommissioningRequest) async throws -> ExitCode {
        var request = base
        if let address = context.address { request.locator = .address(address) }
        request.nodeID = nodeID
        request.name = name
        request.room = room
        request.skipAttestation = skipAttestation
        if skipAttestation {
            output.output.progress(
                "WARNING: --skip-attestation: the device's identity will NOT be verified. This is recorded for the node."
            )
        }
        let sink = output.output
        var checkpoint: (@Sendable (CommissioningCheckpoint) -> Void)?
        if let point = killPoint {
            checkpoint = { reached in if reached.description == point { TestKillHook.die(at: point) } }
        }
        let cli = output
        let requested = request.nodeID
        let result: CommissioningResult? = try await context.withController(
            trustStore: trustStore, checkpoint: checkpoint
        ) { (controller: Controller) async throws -> CommissioningResult? in
            // Not while a Home API commissioning session holds the state directory (nor may one
            // start while this runs); other pairings may run alongside.
            let lock = try CommissioningLockFile.acquireShared(
                path: CommissioningLockFile.path(storePath: controller.store.database.path))
            defer { lock.release() }
            // First settle what a crashed earlier run left between AddNOC and its store write.
            let interrupted = try Controller.interruptedCommissionings(in: controller.store)
            if !interrupted.isEmpty {
                let outcomes = await controller.resumeInterruptedCommissionings()
                PairingResumeCommand.report(outcomes, to: cli, asJSON: false)
                // A retry of a run interrupted past AddNOC: finishing that run commissioned the very
                // node asked for, so there is nothing left to do (not "node N is already in the store").
                for outcome in outcomes {
                    if case .completed(let node) = outcome.outcome, node.nodeID == requested {
                        reportResumed(node)
                        return nil
                    }
                }
            }
            return try await controller.commission(request) { event in Self.printEvent(event, to: sink) }
        }
        if let result { report(result) }
        return .success
    }

    static func printEvent(_ event: CommissioningEvent, to sink: OutputSink) {
        let stage = event.stage.name.padding(to: 29)
        let time = "\(event.durationMilliseconds) ms".leftPadded(to: 8)
        switch event.outcome {
        case .started: return
        case .succeeded(let detail): sink.progress("  ok    \(stage)\(time)" + (detail.map { "  \($0)" } ?? ""))
        case .skipped(let reason): sink.progress("  SKIP  \(stage)\("-".leftPadded(to: 8))  \(reason)")
        case .failed(let error): sink.progress("  FAIL  \(stage)\(time)  \(error.underlying)")
        }
    }

    /// The node the interrupted run commissioned, finished now.
    private func reportResumed(_ node: ControllerNode) {
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", node.nodeID.json), ("name", node.name.map { .string($0) } ?? .null),
                    ("room", node.room.map { .string($0) } ?? .null),
                    ("vendorID", .uint(UInt64(node.vendorID.rawValue))),
                    ("productID", .uint(UInt64(node.productID.rawValue))),
                    ("attestationSkipped", .bool(node.attestationSkipped)),
                    ("deviceTypes", NodesCommand.json(node.deviceTypes)), ("resumed", .bool(true)),
                ]))
        } else {
            output.output.print(
                "commissioned node \(nodeLabel(node)) (VID \(node.vendorID) PID \(node.productID)): "
                    + "the interrupted run's commissioning, finished now")
        }
    }

    private func report(_ result: CommissioningResult) {
        let node = result.node
        if output.json {
            output.output.printJSON(
                .object([
                    ("node", node.nodeID.json), ("name", node.name.map { .string($0) } ?? .null),
                    ("room", node.room.map { .string($0) } ?? .null),
                    ("vendorID", .uint(UInt64(node.vendorID.rawValue))),
                    ("productID", .uint(UInt64(node.productID.rawValue))),
                    ("address", .string(result.operationalAddress)),
                    ("attestationSkipped", .bool(node.attestationSkipped)),
                    ("deviceTypes", NodesCommand.json(node.deviceTypes)),
                    ("stages", .array(result.events.compactMap(Self.json))),
                ]))
        } else {
            let total = result.events.reduce(UInt64(0)) { total, event in
                if case .started = event.outcome { return total }
                return total + event.durationMilliseconds
            }
            output.output.print(
                "commissioned node \(nodeLabel(node)) (VID \(node.vendorID) PID \(node.productID)) at "
                    + "\(result.operationalAddress) in \(total) ms")
        }
    }

    static func json(_ event: CommissioningEvent) -> JSONValue? {
        var fields: [(String, JSONValue)] = [("stage", .string(event.stage.name))]
        switch event.outcome {
        case .started: return nil
        case .succeeded(let detail):
            fields += [("outcome", .string("succeeded")), ("durationMs", .uint(event.durationMilliseconds))]
            if let detail { fields.append(("detail", .string(detail))) }
        case .skipped(let reason): fields += [("outcome", .string("skipped")), ("detail", .string(reason))]
        case .failed(let error):
            fields += [
                ("outcome", .string("failed")), ("durationMs", .uint(event.durationMilliseconds)),
                ("detail", .string("\(error.underlying)")),
            ]
        }
        return .object(fields)
    }
}

extension String {
    /// The text followed by spaces up to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
    /// Spaces then the text, `width` characters in all.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
