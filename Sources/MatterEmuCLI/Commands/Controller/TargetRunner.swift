import MatterController
import MatterCore
import MatterStorage

/// Runs one command on a node, or on every member of a group, and reports the outcome: a group
/// command succeeds when at least one member does, and names each member that failed (stderr).
struct TargetRunner {
    let context: ControllerContext
    let output: CLIContext
    /// What is being done, e.g. `OnOff.On`.
    let label: String

    func run(
        _ targetText: String, endpoint: String?,
        _ operation: @escaping @Sendable (Controller, NodeID, EndpointID) async throws(ControllerError) -> Void
    ) async throws -> ExitCode {
        let store = try context.openStore()
        let target = try context.target(targetText, endpoint: endpoint, in: store)
        return try await context.withController(boundedByTimeout: true) { controller in
            switch target {
            case .node(let node, let endpoint):
                await context.applyAddress(to: controller, node: node.nodeID)
                try await operation(controller, node.nodeID, endpoint)
                if output.json {
                    output.output.printJSON(
                        .object([
                            ("node", node.nodeID.json), ("endpoint", .uint(UInt64(endpoint.rawValue))),
                            ("command", .string(label)), ("status", .string("success")),
                        ]))
                } else {
                    output.output.print("node \(nodeLabel(node)) endpoint \(endpoint.rawValue): \(label) succeeded")
                }
                return .success
            case .group(let group):
                let result = try await controller.forEachMember(of: group) {
                    controller, member throws(ControllerError) in
                    try await operation(controller, member.nodeID, member.endpoint)
                }
                report(result)
                return .success
            }
        }
    }

    private func report(_ result: GroupResult<Void>) {
        for failure in result.failures {
            guard let error = failure.error else { continue }
            output.output.progress(
                "warning: node \(failure.member.nodeID.rawValue) endpoint \(failure.member.endpoint.rawValue): \(error)"
            )
        }
        if output.json {
            let members: [JSONValue] = result.members.map { member in
                var fields: [(String, JSONValue)] = [
                    ("node", member.member.nodeID.json), ("endpoint", .uint(UInt64(member.member.endpoint.rawValue))),
                ]
                if let error = member.error {
                    fields += [
                        ("status", .string("error")), ("exitCode", .int(Int64(error.exitCode.rawValue))),
                        ("message", .string(error.description)),
                    ]
                } else {
                    fields.append(("status", .string("success")))
                }
                return .object(fields)
            }
            output.output.printJSON(
                .object([
                    ("group", .string(result.group)), ("command", .string(label)),
                    ("succeeded", .uint(UInt64(result.successCount))), ("failed", .uint(UInt64(result.failures.count))),
                    ("members", .array(members)),
                ]))
        } else {
            for member in result.members where member.error == nil {
                output.output.print(
                    "node \(member.member.nodeID.rawValue) endpoint \(member.member.endpoint.rawValue): \(label) succeeded"
                )
            }
            output.output.print(
                "group \"\(result.group)\": \(label) succeeded on \(result.successCount) of \(result.members.count) members"
            )
        }
    }
}
