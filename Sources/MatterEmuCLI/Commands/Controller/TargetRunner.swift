import MatterController
import MatterCore
import MatterInteraction
import MatterStorage

/// Runs one command on a node, or on every member of a group, and reports the outcome. A group
/// command skips the members without the capability (the device answers that it has no such
/// endpoint, cluster or command: UNSUPPORTED_ENDPOINT, UNSUPPORTED_CLUSTER, UNSUPPORTED_COMMAND),
/// saying so on stderr; it succeeds when at least one member ran it, names each member that failed
/// (stderr), and fails only when every member it applied to failed, or none had the capability.
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
                // A member without the capability answers so; it is skipped, not failed.
                let result = try await controller.forEachMember(of: group) {
                    controller, member throws(ControllerError) -> Skip? in
                    do throws(ControllerError) {
                        try await operation(controller, member.nodeID, member.endpoint)
                        return nil
                    } catch {
                        guard let skip = Skip(error) else { throw error }
                        return skip
                    }
                }
                try report(result)
                return .success
            }
        }
    }

    /// Why a member was skipped: it has no such endpoint, cluster or command.
    struct Skip: Sendable {
        let reason: String

        init?(_ error: ControllerError) {
            guard case .status(let status, _) = error.underlying else { return nil }
            switch status.status {
            case .unsupportedEndpoint: reason = "it has no such endpoint"
            case .unsupportedCluster: reason = "it has no such cluster on that endpoint"
            case .unsupportedCommand: reason = "it does not accept the command"
            default: return nil
            }
        }
    }

    private func report(_ result: GroupResult<Skip?>) throws(ControllerError) {
        let skipped = result.members.filter { member in
            if case .success(let skip) = member.result { return skip != nil }
            return false
        }
        for member in skipped {
            guard case .success(let skip?) = member.result else { continue }
            output.output.progress(
                "skipped: node \(member.member.nodeID.rawValue) endpoint \(member.member.endpoint.rawValue): "
                    + "\(skip.reason) (\(label))")
        }
        for failure in result.failures {
            guard let error = failure.error else { continue }
            output.output.progress(
                "warning: node \(failure.member.nodeID.rawValue) endpoint \(failure.member.endpoint.rawValue): \(error)"
            )
        }
        let ran = result.successCount - skipped.count
        if ran == 0 {
            if let first = result.failures.first?.error {
                throw .allMembersFailed(
                    group: result.group,
                    failures: result.failures.compactMap { member in
                        member.error.map {
                            "node \(member.member.nodeID.rawValue)/\(member.member.endpoint.rawValue): \($0)"
                        }
                    }, category: first.category)
            }
            throw .invalidArgument(
                "no member of group \"\(result.group)\" can do \(label): every member was skipped (see above)")
        }
        if output.json {
            let members: [JSONValue] = result.members.map { member in
                var fields: [(String, JSONValue)] = [
                    ("node", member.member.nodeID.json), ("endpoint", .uint(UInt64(member.member.endpoint.rawValue))),
                ]
                if case .success(let skip?) = member.result {
                    fields += [("status", .string("skipped")), ("reason", .string(skip.reason))]
                } else if let error = member.error {
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
                    ("succeeded", .uint(UInt64(ran))), ("skipped", .uint(UInt64(skipped.count))),
                    ("failed", .uint(UInt64(result.failures.count))), ("members", .array(members)),
                ]))
        } else {
            for member in result.members {
                guard case .success(nil) = member.result else { continue }
                output.output.print(
                    "node \(member.member.nodeID.rawValue) endpoint \(member.member.endpoint.rawValue): \(label) succeeded"
                )
            }
            let skippedNote = skipped.isEmpty ? "" : " (\(skipped.count) skipped)"
            output.output.print(
                "group \"\(result.group)\": \(label) succeeded on \(ran) of \(result.members.count) members\(skippedNote)"
            )
        }
    }
}
