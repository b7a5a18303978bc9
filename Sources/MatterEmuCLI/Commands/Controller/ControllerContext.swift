import Dispatch
import MatterController
import MatterCore
import MatterCredentials
import MatterDiscovery
import MatterStorage
import MatterTransport
import Synchronization

/// Options the controller commands share.
enum ControllerOptions {
    static let stateDirectory = OptionSpec.value(
        "state-dir", "DIR", "controller state (default $XDG_STATE_HOME/matter-emu, else ~/.local/state/matter-emu)")
    static let address = OptionSpec.value(
        "address", "HOST:PORT", "reach the node at this address instead of resolving it through DNS-SD")
    static let timeout = OptionSpec.value(
        "timeout", "SECONDS",
        "commands on nodes: the whole command; pairing: the DNS-SD search (whole seconds, 1...86400; default: "
            + "10 s to find a device, 5 s to resolve a node)")
    /// For commands that only read or write the store.
    static let store: [OptionSpec] = [stateDirectory]
    /// For commands that talk to nodes.
    static let network: [OptionSpec] = [stateDirectory, address, timeout, MDNSOption.spec]
}

/// Where the controller's state is and how to reach nodes, from the command line.
struct ControllerContext {
    let stateDirectory: String
    let address: DirectAddress?
    let timeout: Duration?
    /// `--mdns`: how to browse DNS-SD (nil: Avahi).
    let mdns: MDNSBackend?
    let command: String

    init(_ arguments: ParsedArguments, command: String) throws {
        self.command = command
        if let directory = arguments.value("state-dir"), directory.isEmpty {
            throw UsageError("--state-dir cannot be empty", command: command)
        }
        // The same default as the device commands'.
        stateDirectory = StateDirectory.resolve(arguments.value("state-dir"))
        if let text = arguments.value("address") {
            do { address = try DirectAddress(parsing: text) } catch {
                throw UsageError("--address: \(error)", command: command)
            }
        } else {
            address = nil
        }
        timeout = try arguments.wholeSeconds("timeout", in: 1...86_400).map { .seconds($0) }
        mdns = try MDNSOption.parse(arguments, command: command)
    }

    /// The store under the state directory.
    func openStore() throws(ControllerError) -> ControllerStore {
        do { return try ControllerStore(path: ControllerStateDirectory.storePath(in: stateDirectory)) } catch {
            throw .storage(error)
        }
    }

    /// Opens a controller on a UDP socket on any port, runs `body`, and stops it whatever happens.
    ///
    /// `boundedByTimeout`: with `--timeout`, the whole of `body` (resolution, CASE and the request)
    /// must end within it; when it does not, the controller is stopped (which ends whatever waits on
    /// the network) and the command fails as unreachable (exit 7).
    func withController<T>(
        trustStore: PAATrustStore? = nil, checkpoint: (@Sendable (CommissioningCheckpoint) -> Void)? = nil,
        boundedByTimeout: Bool = false, _ body: (Controller) async throws -> T
    ) async throws -> T {
        let store = try openStore()
        let endpoint: UDPEndpoint
        do { endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "matter-emu.controller")) } catch {
            throw ControllerError.internalFailure("cannot open a UDP socket: \(error)")
        }
        let trust: PAATrustStore
        if let trustStore {
            trust = trustStore
        } else {
            do { trust = try DefaultPAATrustStore.make() } catch {
                throw ControllerError.internalFailure("the built-in PAA trust store: \(error)")
            }
        }
        var configuration = ControllerConfiguration(store: store, transport: endpoint, trustStore: trust)
        configuration.checkpoint = checkpoint
        if let mdns { configuration.discovery = .mdns(mdns) }
        if let timeout {
            configuration.discoveryTimeout = timeout
            configuration.resolveTimeout = timeout
        }
        let controller = try await Controller.open(configuration)
        let expired = Mutex(false)
        var watchdog: Task<Void, Never>?
        if boundedByTimeout, let timeout {
            // Detached: it must not wait for the caller's executor, which the command may occupy.
            watchdog = Task.detached {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                expired.withLock { $0 = true }
                await controller.stop()
            }
        }
        do {
            let value = try await body(controller)
            watchdog?.cancel()
            await controller.stop()
            return value
        } catch {
            watchdog?.cancel()
            await controller.stop()
            if expired.withLock({ $0 }), let timeout {
                throw ControllerError.unreachable("no answer within --timeout \(timeout.components.seconds) s")
            }
            throw error
        }
    }

    // MARK: Node and group arguments

    /// A node given by ID (decimal or 0x hex) or by name; it must be in the store.
    func node(_ text: String, in store: ControllerStore) throws -> ControllerNode {
        do throws(StorageError) {
            if let number = Self.number(text), let node = try store.node(NodeID(number)) { return node }
            if let node = try store.node(named: text) { return node }
        } catch {
            throw ControllerError.storage(error)
        }
        if Self.number(text) != nil {
            throw UsageError("no node \(text) in the store (see 'matter-emu nodes')", command: command)
        }
        throw UsageError("no node named \"\(text)\" (see 'matter-emu nodes')", command: command)
    }

    /// A node (and endpoint, default 1) or a group, as given where chip-tool takes a destination.
    func target(_ text: String, endpoint endpointText: String?, in store: ControllerStore) throws -> Target {
        let endpoint = try endpointText.map { try Self.endpoint($0, command: command) }
        let group: ControllerGroup?
        do throws(StorageError) {
            var isStoredNodeID = false
            if let number = Self.number(text) { isStoredNodeID = try store.node(NodeID(number)) != nil }
            group = isStoredNodeID ? nil : try store.group(named: text)
        } catch {
            throw ControllerError.storage(error)
        }
        if let group {
            guard endpoint == nil else {
                throw UsageError(
                    "\"\(group.name)\" is a group: its members carry their endpoints, give no <endpoint>",
                    command: command)
            }
            guard address == nil else {
                throw UsageError("--address applies to one node, not to group \"\(group.name)\"", command: command)
            }
            return .group(group)
        }
        let node = try node(text, in: store)
        return .node(node, endpoint ?? EndpointID(1))
    }

    /// Applies `--address` to the node, if given.
    func applyAddress(to controller: Controller, node: NodeID) async {
        if let address { await controller.setAddress(address, for: node) }
    }

    static func number(_ text: String) -> UInt64? {
        let lower = text.lowercased()
        return lower.hasPrefix("0x") ? UInt64(lower.dropFirst(2), radix: 16) : UInt64(lower)
    }

    static func endpoint(_ text: String, command: String) throws(UsageError) -> EndpointID {
        EndpointID(try ParsedArguments.parseUnsigned(text, what: "<endpoint>", command: command))
    }

    /// A node ID for a new device: a number, or `auto` for the next free one.
    static func newNodeID(_ text: String, command: String) throws(UsageError) -> NodeID? {
        if text.lowercased() == "auto" { return nil }
        let value: UInt64 = try ParsedArguments.parseUnsigned(text, what: "<node-id>", command: command)
        guard NodeID(value).isOperational else {
            throw UsageError(
                "<node-id> \(text) is not an operational node ID (1...0xFFFFFFEFFFFFFFFF)", command: command)
        }
        return NodeID(value)
    }
}

/// Where a command goes: one node's endpoint, or every member of a group.
enum Target {
    case node(ControllerNode, EndpointID)
    case group(ControllerGroup)
}

extension ControllerError: ExitCodeProviding {
    var exitCode: ExitCode {
        switch category {
        case .invalidArgument: .usage
        case .discovery: .discovery
        case .pase: .pase
        case .attestation: .attestation
        case .commissioning: .commissioning
        case .unreachable: .unreachable
        case .status: .status
        case .storage: .storage
        case .internalFailure: .failure
        }
    }
}

extension NodeID {
    /// The JSON form of a node ID.
    var json: JSONValue { .uint(rawValue) }
}

/// How a stored node is shown: `5 "Desk lamp"`.
func nodeLabel(_ node: ControllerNode) -> String {
    node.name.map { "\(node.nodeID.rawValue) \"\($0)\"" } ?? "\(node.nodeID.rawValue)"
}
