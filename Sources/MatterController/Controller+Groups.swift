import MatterCore
public import MatterStorage

/// One member's outcome of a group operation.
public struct GroupMemberResult<Value: Sendable>: Sendable {
    public let member: ControllerGroup.Member
    public let result: Result<Value, ControllerError>

    public var error: ControllerError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// A group operation's outcome, member by member (in the group's order).
public struct GroupResult<Value: Sendable>: Sendable {
    public let group: String
    public let members: [GroupMemberResult<Value>]

    /// The members that failed.
    public var failures: [GroupMemberResult<Value>] { members.filter { $0.error != nil } }
    /// How many members succeeded.
    public var successCount: Int { members.count - failures.count }
}

extension Controller {
    /// Runs `operation` on every member of the stored group named `groupName`, all at once. Succeeds
    /// when at least one member succeeds (the result lists every member's outcome); throws
    /// `.allMembersFailed` when every member fails.
    public func forEachMember<Value: Sendable>(
        of groupName: String,
        _ operation: @escaping @Sendable (Controller, ControllerGroup.Member) async throws(ControllerError) -> Value
    ) async throws(ControllerError) -> GroupResult<Value> {
        let group: ControllerGroup?
        do { group = try store.group(named: groupName) } catch { throw .storage(error) }
        guard let group else { throw .invalidArgument("no group named \"\(groupName)\"") }
        return try await forEachMember(of: group, operation)
    }

    /// Like ``forEachMember(of:_:)-(String,_)``, for a group given in full.
    public func forEachMember<Value: Sendable>(
        of group: ControllerGroup,
        _ operation: @escaping @Sendable (Controller, ControllerGroup.Member) async throws(ControllerError) -> Value
    ) async throws(ControllerError) -> GroupResult<Value> {
        guard !group.members.isEmpty else {
            throw .invalidArgument("group \"\(group.name)\" has no members (add some with 'matter-emu group add')")
        }
        let outcomes = await withTaskGroup(of: (Int, Result<Value, ControllerError>).self) { tasks in
            for (index, member) in group.members.enumerated() {
                tasks.addTask {
                    do throws(ControllerError) {
                        return (index, .success(try await operation(self, member)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var collected: [(Int, Result<Value, ControllerError>)] = []
            for await outcome in tasks { collected.append(outcome) }
            return collected.sorted { $0.0 < $1.0 }
        }
        let members = outcomes.map { GroupMemberResult(member: group.members[$0.0], result: $0.1) }
        let result = GroupResult(group: group.name, members: members)
        if result.successCount == 0 {
            let failures = members.compactMap { member in
                member.error.map { "node \(member.member.nodeID.rawValue)/\(member.member.endpoint.rawValue): \($0)" }
            }
            throw .allMembersFailed(
                group: group.name, failures: failures,
                category: members.first?.error?.category ?? .internalFailure)
        }
        return result
    }
}
