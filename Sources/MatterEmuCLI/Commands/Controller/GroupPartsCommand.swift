import MatterController
import MatterCore
import MatterHome
import MatterStorage
import MatterTLV

/// `matter-emu group parts <group>`: the group's parts as the Home API's `DeviceGroup` has them (one
/// per device type a member has), with the commands some member accepts and the capability
/// attributes (limits and settings every member can reach; never dynamic state such as `onOff`).
struct GroupPartsCommand: CLICommand {
    static let path = ["group", "parts"]
    static let summary = "show a group's parts: device types, the commands they accept, capability attributes"
    static let options = ControllerOptions.store + [ControllerOptions.timeout]
    static let positionals: [PositionalSpec] = [.required("group", "group name")]
    let context: ControllerContext
    let output: CLIContext
    let name: String

    init(arguments: ParsedArguments, context: CLIContext) throws {
        self.context = try ControllerContext(arguments, command: Self.pathString)
        output = context
        name = arguments.positionals[0]
    }

    func run() async throws -> ExitCode {
        let store = try context.openStore()
        let stored: ControllerGroup?
        do { stored = try store.group(named: name) } catch { throw ControllerError.storage(error) }
        guard let stored else { throw UsageError("no group named \"\(name)\" (see 'matter-emu group list')") }
        var configuration = Home.Configuration(stateDirectory: context.stateDirectory)
        configuration.followsEveryDevice = false
        let timeout = context.timeout
        configuration.controllerSettings = { controller in
            if let timeout {
                controller.discoveryTimeout = timeout
                controller.resolveTimeout = timeout
            }
        }
        let home = try await Home.open(configuration: configuration)
        let groups: [DeviceGroup]
        do { groups = try await home.structures().list().first?.deviceGroups() ?? [] } catch {
            await home.close()
            throw error
        }
        guard let group = groups.first(where: { $0.name == stored.name }) else {
            await home.close()
            throw UsageError("no group named \"\(name)\" (see 'matter-emu group list')")
        }
        guard let parts = await Self.within(timeout, { await group.partSummaries() }) else {
            // A member neither answered nor failed in time: its subscription attempt is still under
            // way, and closing the home would wait for it; it ends with the process.
            throw ControllerError.unreachable(
                "a member of group \"\(stored.name)\" gave no answer within --timeout "
                    + "\(timeout?.components.seconds ?? 0) s")
        }
        await home.close()
        if output.json {
            output.output.printJSON(
                .object([("group", .string(stored.name)), ("parts", .array(parts.map(Self.json)))]))
        } else {
            output.output.print(Self.text(stored.name, parts))
        }
        return .success
    }

    /// `body`'s value, or nil when `timeout` (if any) passed first.
    static func within<T: Sendable>(_ timeout: Duration?, _ body: @escaping @Sendable () async -> T) async -> T? {
        guard let timeout else { return await body() }
        let (results, result) = AsyncStream.makeStream(of: T?.self)
        let work = Task {
            result.yield(await body())
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            result.yield(nil)
        }
        var iterator = results.makeAsyncIterator()
        let value = await iterator.next() ?? nil
        timer.cancel()
        if value == nil { work.cancel() }
        result.finish()
        return value
    }

    static func json(_ part: GroupPartSummary) -> JSONValue {
        .object([
            ("deviceType", .string(part.deviceType)), ("deviceTypeID", .uint(UInt64(part.deviceTypeID))),
            (
                "traits",
                .array(
                    part.traits.map { trait in
                        .object([
                            ("trait", .string(trait.name)), ("cluster", .uint(UInt64(trait.clusterID))),
                            ("commands", .array(trait.commands.map { .string($0) })),
                            (
                                "attributes",
                                .object(
                                    trait.attributes.map {
                                        ($0.name, $0.value.map { TLVJSON.json($0, as: nil) } ?? .null)
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    static func text(_ group: String, _ parts: [GroupPartSummary]) -> String {
        guard !parts.isEmpty else { return "group \"\(group)\": no parts (no member has a known device type)" }
        var lines = ["group \"\(group)\": \(parts.count) part\(parts.count == 1 ? "" : "s")"]
        for part in parts {
            lines.append("\(part.deviceType) (device type \(part.deviceTypeID))")
            for trait in part.traits {
                let commands = trait.commands.isEmpty ? "(none)" : trait.commands.joined(separator: ", ")
                let attributes =
                    trait.attributes.isEmpty
                    ? "(none)"
                    : trait.attributes.map {
                        "\($0.name)=\($0.value.map { TLVJSON.json($0, as: nil).serialized(pretty: false) } ?? "null")"
                    }
                    .joined(separator: ", ")
                lines.append("  \(trait.name): commands \(commands); capability attributes \(attributes)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
