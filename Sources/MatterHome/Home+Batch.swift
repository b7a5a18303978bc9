import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterTLV

extension Home {
    /// Sends the commands `block` adds to the batcher together, and returns what `block` returned (the
    /// Home API's `sendBatchedCommands`): the commands for one device go in one InvokeRequest, or in as
    /// few as the device's MaxPathsPerInvoke allows (a device that takes one command per request gets
    /// them one after another), the devices all at once. A group part's command goes to each member that
    /// accepts it. Each command's result is in the provider `add` returned: its response, or its own
    /// failure (one command refused does not fail the others). Returns once every command was answered
    /// and the devices' subscriptions reported what they changed.
    /// - Throws: what `block` throws; nothing is sent then.
    public func sendBatchedCommands<T>(_ block: (CommandBatcher) throws -> T) async rethrows -> T {
        let batcher = CommandBatcher()
        let value = try block(batcher)
        await CommandBatch.send(batcher.take(), controller: context.controller)
        return value
    }
}

/// How a batch goes out: per device, in InvokeRequests of at most its MaxPathsPerInvoke commands.
enum CommandBatch {
    /// One command for one endpoint of one device (a group part's command is one per member).
    struct Item: Sendable {
        let entry: Int
        let member: PartMember
        let path: ConcreteCommandPath
        let fields: [TLVElement]

        var clusterPath: ClusterPath { ClusterPath(endpoint: path.endpoint, cluster: path.cluster) }
    }

    /// One cluster of one endpoint (whose DataVersion tells whether it changed).
    struct ClusterPath: Hashable {
        let endpoint: EndpointID
        let cluster: ClusterID
    }

    static func send(_ entries: [CommandBatcher.Entry], controller: Controller) async {
        var items: [Item] = []
        for (index, entry) in entries.enumerated() {
            let fields: [TLVElement]
            switch entry.fields {
            case .failure(let error):
                entry.slot.fill(.failure(error))
                continue
            case .success(let written): fields = written
            }
            let members =
                entry.part.group == nil
                ? Array(entry.part.members.prefix(1))
                : entry.part.members.filter { $0.live.accepts($0.endpoint, entry.cluster, entry.command) != false }
            guard !members.isEmpty else {
                let name = DevicePart.commandName(entry.cluster, entry.command)
                entry.slot.fill(.failure(.invalid("no member accepts \(name)", code: .unimplemented)))
                continue
            }
            for member in members {
                let path = ConcreteCommandPath(
                    endpoint: member.endpoint, cluster: entry.cluster, command: entry.command)
                items.append(Item(entry: index, member: member, path: path, fields: fields))
            }
        }
        var byDevice: [ObjectIdentifier: [Item]] = [:]
        var order: [ObjectIdentifier] = []
        for item in items {
            let key = ObjectIdentifier(item.member.live)
            if byDevice[key] == nil { order.append(key) }
            byDevice[key, default: []].append(item)
        }
        let outcomes = await withTaskGroup(of: [(Int, Result<InvokeResult, HomeError>)].self) { tasks in
            for key in order {
                let deviceItems = byDevice[key] ?? []
                tasks.addTask { await send(deviceItems, controller: controller) }
            }
            var all: [(Int, Result<InvokeResult, HomeError>)] = []
            for await outcome in tasks { all += outcome }
            return all
        }
        // Per command: a success of any member, else the first failure of a member that has the command.
        for (index, entry) in entries.enumerated() where entry.slot.value == nil {
            let mine = outcomes.filter { $0.0 == index }.map(\.1)
            if let success = mine.first(where: { if case .success = $0 { true } else { false } }) {
                entry.slot.fill(success)
            } else if let failure = mine.first(where: { !lacksCommand($0) }) ?? mine.first {
                entry.slot.fill(failure)
            } else {
                entry.slot.fill(.failure(HomeError(.internalFailure, "the command was not sent")))
            }
        }
    }

    /// Sends one device's items: chunks of at most its MaxPathsPerInvoke, no path twice in a chunk; then
    /// waits for the device's reports of what they changed. The results are indexed by item entry.
    static func send(_ items: [Item], controller: Controller) async -> [(Int, Result<InvokeResult, HomeError>)] {
        guard let live = items.first?.member.live else { return [] }
        let limit =
            live.value(.root, .basicInformation, .BasicInformation.maxPathsPerInvoke)?.unsignedValue
            .flatMap { Int(exactly: $0) }.map { max(1, $0) } ?? 1
        var chunks: [[Item]] = []
        for item in items {
            if let last = chunks.last, last.count < limit, !last.contains(where: { $0.path == item.path }) {
                chunks[chunks.count - 1].append(item)
            } else {
                chunks.append([item])
            }
        }
        var results: [(Int, Result<InvokeResult, HomeError>)] = []
        // The clusters the commands succeeded on, with their DataVersion before the batch was sent: the first
        // report of a cluster since then carries what the commands changed.
        var before: [ClusterPath: UInt32?] = [:]
        for item in items where before[item.clusterPath] == nil {
            before[item.clusterPath] = .some(live.dataVersion(item.path.endpoint, item.path.cluster))
        }
        var changed: [ClusterPath: UInt32?] = [:]
        for chunk in chunks {
            let timed = chunk.contains { item in
                ClusterRegistry.standard.cluster(item.path.cluster)?.command(item.path.command)?.requiresTimedInvoke
                    ?? false
            }
            let requests = chunk.map { CommandRequest(path: $0.path, fields: .structure($0.fields)) }
            do {
                let answers = try await controller.invoke(live.nodeID, batch: requests, timed: timed)
                for (item, answer) in zip(chunk, answers) {
                    if case .status(let status) = answer, !status.isSuccess {
                        let context =
                            "node \(live.nodeID.rawValue), \(DevicePart.commandName(item.path.cluster, item.path.command))"
                        results.append(
                            (item.entry, .failure(HomeError(ControllerError.status(status, context: context)))))
                    } else {
                        results.append((item.entry, .success(answer)))
                        changed[item.clusterPath] = before[item.clusterPath] ?? nil
                    }
                }
            } catch {
                for item in chunk { results.append((item.entry, .failure(HomeError(error)))) }
            }
        }
        await withTaskGroup(of: Void.self) { tasks in
            for (path, version) in changed {
                tasks.addTask {
                    await live.waitForReport(path.endpoint, path.cluster, after: version, limit: DevicePart.reportWait)
                }
            }
        }
        return results
    }

    /// True for a member's answer that it has no such endpoint, cluster or command.
    static func lacksCommand(_ result: Result<InvokeResult, HomeError>) -> Bool {
        guard case .failure(let error) = result else { return false }
        return error.subcodes.first.map { code in
            DevicePart.lackingStatuses.contains { Int($0.rawValue) == code }
        } ?? false
    }
}
