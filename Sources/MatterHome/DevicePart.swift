import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterTLV

/// One endpoint of one device, as a member of a part.
struct PartMember: Sendable {
    let live: LiveDevice
    let endpoint: EndpointID
}

/// How a group part shows an attribute its members may disagree on.
enum GroupMerge: Sendable {
    /// Dynamic state (`onOff`, `currentLevel`): not populated on a group part.
    case dynamic
    /// A lower bound of a capability: the largest member value (what every member can reach).
    case largest
    /// An upper bound of a capability: the smallest member value.
    case smallest
    /// A setting: the members' value when they all agree.
    case common
}

/// What a device type's traits act on: one endpoint of one device, or (for a ``DeviceGroup``'s part)
/// the endpoints of every member. Made by the home; apps get it inside device types.
public struct DevicePart: Sendable {
    let home: HomeContext
    let members: [PartMember]
    /// The group's name for a group part; nil for a device's endpoint.
    let group: String?

    // MARK: Attributes

    func value(_ cluster: ClusterID, _ attribute: AttributeID, merge: GroupMerge) -> TLVValue? {
        guard group != nil else {
            return members.first.flatMap { $0.live.value($0.endpoint, cluster, attribute) }
        }
        let values = members.compactMap { $0.live.value($0.endpoint, cluster, attribute) }
        guard !values.isEmpty else { return nil }
        switch merge {
        case .dynamic:
            return nil
        case .largest:
            return values.compactMap(\.unsignedValue).max().map(TLVValue.unsigned)
        case .smallest:
            return values.compactMap(\.unsignedValue).min().map(TLVValue.unsigned)
        case .common:
            return values.allSatisfy({ $0 == values[0] }) ? values[0] : nil
        }
    }

    /// True when the endpoint (for a group part: any member) has the attribute.
    func isSupported(_ cluster: ClusterID, _ attribute: AttributeID) -> Bool {
        members.contains { $0.live.hasAttribute($0.endpoint, cluster, attribute) == true }
    }

    /// True when the endpoint (for a group part: any member) has a server for `cluster`.
    func hasCluster(_ cluster: ClusterID) -> Bool {
        members.contains { $0.live.hasCluster($0.endpoint, cluster) }
    }

    /// True when the endpoint (for a group part: any member) accepts `command`.
    func supports(_ cluster: ClusterID, _ command: CommandID) -> Bool {
        members.contains { $0.live.accepts($0.endpoint, cluster, command) == true }
    }

    // MARK: Commands

    /// Invokes a typed command and returns its typed response (``DefaultSuccess`` for a status).
    @discardableResult
    func invoke<C: ClusterCommand>(_ command: C, timed: Bool? = nil) async throws(HomeError) -> C.Response {
        let result = try await invoke(C.cluster, C.id, fields: command.fieldElements(), timed: timed)
        return try Self.response(C.self, result)
    }

    /// Invokes a command. On a device, returns once the command's effect is in the cache: the device's
    /// subscription reports it (no second read). On a group part, sends it to every member that accepts
    /// it (members not known to lack it included), all at once; succeeds when one did (returning the
    /// first member's answer), throws the first failure when all did (a member that answers it has no
    /// such command is skipped, not failed).
    @discardableResult
    func invoke(
        _ cluster: ClusterID, _ command: CommandID, fields: [TLVElement] = [], timed: Bool? = nil
    ) async throws(HomeError) -> InvokeResult {
        let controller = home.controller
        guard let group else {
            guard let member = members.first else { throw HomeError(.internalFailure, "a part without a device") }
            let before = member.live.dataVersion(member.endpoint, cluster)
            let result: InvokeResult
            do {
                result = try await controller.invoke(
                    member.live.nodeID, endpoint: member.endpoint, cluster: cluster, command: command, fields: fields,
                    timed: timed)
            } catch {
                throw HomeError(error)
            }
            await member.live.waitForReport(member.endpoint, cluster, after: before, limit: Self.reportWait)
            return result
        }
        let relevant = members.filter { $0.live.accepts($0.endpoint, cluster, command) != false }
        guard !relevant.isEmpty else {
            throw .invalid(
                "no member of group \"\(group)\" accepts \(Self.commandName(cluster, command))", code: .unimplemented)
        }
        // A member whose data model was not known yet may turn out not to have the command: it
        // answers UNSUPPORTED_ENDPOINT/CLUSTER/COMMAND and is skipped, as one known to lack it.
        let outcomes = await withTaskGroup(of: (Int, Result<InvokeResult, HomeError>, skipped: Bool).self) { tasks in
            for (index, member) in relevant.enumerated() {
                tasks.addTask {
                    do throws(ControllerError) {
                        let result = try await controller.invoke(
                            member.live.nodeID, endpoint: member.endpoint, cluster: cluster, command: command,
                            fields: fields, timed: timed)
                        return (index, .success(result), false)
                    } catch {
                        return (index, .failure(HomeError(error)), Self.lacksCommand(error))
                    }
                }
            }
            var collected: [(Int, Result<InvokeResult, HomeError>, skipped: Bool)] = []
            for await outcome in tasks { collected.append(outcome) }
            return collected.sorted { $0.0 < $1.0 }
        }
        for outcome in outcomes { if case .success(let result) = outcome.1 { return result } }
        for outcome in outcomes where !outcome.skipped { if case .failure(let error) = outcome.1 { throw error } }
        throw .invalid(
            "no member of group \"\(group)\" accepts \(Self.commandName(cluster, command))", code: .unimplemented)
    }

    /// The statuses a device answers for an endpoint, cluster or command it does not have.
    static let lackingStatuses: Set<IMStatus> = [.unsupportedEndpoint, .unsupportedCluster, .unsupportedCommand]

    /// True when the device answered that it has no such endpoint, cluster or command.
    static func lacksCommand(_ error: ControllerError) -> Bool {
        guard case .status(let status, _) = error.underlying else { return false }
        return lackingStatuses.contains(status.status)
    }

    /// How long a command or a write waits for the device's report of its effect (the home subscribes with
    /// a MinInterval of 0, so the report follows the answer at once). A command returns at the first report
    /// of its cluster since it was sent (a command that changed nothing in its cluster is not reported and
    /// returns after this); a write returns when the values written are reported.
    static let reportWait = Duration.seconds(1)

    /// Writes the attributes a trait's `update` collected.
    func write(_ cluster: ClusterID, _ writes: TraitWrites) async throws(HomeError) {
        if let failure = writes.failure { throw HomeError(.internalFailure, "a value cannot be written: \(failure)") }
        try await write(cluster, writes.items)
    }

    /// Writes attributes of `cluster` (each must be supported and writable); returns once the device's
    /// subscription reported the change.
    func write(_ cluster: ClusterID, _ writes: [(AttributeID, TLVValue)]) async throws(HomeError) {
        guard group == nil, let member = members.first else {
            throw .invalid("attributes cannot be written on a group part: write each member's trait")
        }
        let schema = ClusterRegistry.standard.cluster(cluster)
        for (attribute, _) in writes {
            let name = schema?.attribute(attribute)?.name ?? "\(attribute)"
            guard member.live.hasAttribute(member.endpoint, cluster, attribute) != false else {
                throw .invalid("device \(member.live.nodeID.rawValue) does not support \(name)", code: .notFound)
            }
            guard schema?.attribute(attribute)?.isWritable ?? true else {
                throw .invalid("\(name) is read-only: a command changes it, not a write")
            }
        }
        for (attribute, value) in writes {
            do {
                try await home.controller.writeAttribute(
                    member.live.nodeID, endpoint: member.endpoint, cluster: cluster, attribute: attribute, value: value)
            } catch {
                throw HomeError(error)
            }
        }
        await member.live.waitForValues(member.endpoint, cluster, writes, limit: Self.reportWait)
    }

    /// Reads `cluster` of the device into the cache.
    /// - Throws: `invalidArgument` on a group part; the device's failure otherwise.
    func read(_ cluster: ClusterID) async throws(HomeError) {
        guard group == nil, let member = members.first else {
            throw .invalid("a group part is not read: read each member's trait")
        }
        let path = AttributePathIB(endpoint: member.endpoint, cluster: cluster)
        do {
            let result = try await home.controller.read(member.live.nodeID, paths: [path])
            member.live.apply(result.attributes, authoritative: true)
        } catch {
            throw HomeError(error)
        }
    }

    static func commandName(_ cluster: ClusterID, _ command: CommandID) -> String {
        let schema = ClusterRegistry.standard.cluster(cluster)
        return "\(schema?.name ?? "\(cluster)").\(schema?.command(command)?.name ?? "\(command)")"
    }
}

extension TLVValue {
    var unsignedValue: UInt64? {
        if case .unsigned(let value) = self { return value }
        return nil
    }
}

extension TLVElement {
    /// A context-tagged command field.
    static func field(_ tag: UInt8, _ value: TLVValue) -> TLVElement { TLVElement(tag: .context(tag), value) }
    static func field(_ tag: UInt8, _ value: UInt64) -> TLVElement { field(tag, .unsigned(value)) }
}
