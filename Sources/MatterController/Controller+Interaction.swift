import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTransport

/// Low-level interaction helpers shared by commissioning and the operational API.
extension Controller {
    /// Invokes one command on `session`; a non-success CommandStatusIB throws `.status`.
    func invoke(
        _ path: ConcreteCommandPath, fields: [TLVElement] = [], session: SessionID, timed: Bool = false,
        context: String
    ) async throws(ControllerError) -> InvokeResult {
        let result: InvokeResult
        do {
            result = try await client.invoke(
                CommandRequest(path: path, fields: .structure(fields)), session: session,
                timedTimeout: timed ? configuration.timedInteractionTimeout : nil)
        } catch {
            throw ControllerError(error, context: context)
        }
        if case .status(let status) = result, !status.isSuccess { throw .status(status, context: context) }
        return result
    }

    /// Invokes a command that answers with response command `response`, and returns its fields.
    func invoke(
        _ path: ConcreteCommandPath, fields: [TLVElement] = [], expecting response: CommandID, session: SessionID,
        timed: Bool = false, context: String
    ) async throws(ControllerError) -> TLVElement {
        let result = try await invoke(path, fields: fields, session: session, timed: timed, context: context)
        guard case .response(let command, let responseFields) = result, command == response else {
            throw .protocolViolation("\(context): expected response command \(response), got \(result)")
        }
        return TLVElement(responseFields)
    }

    /// Reads `paths` on `session`.
    func read(
        _ paths: [AttributePathIB], session: SessionID, fabricFiltered: Bool = true, context: String
    ) async throws(ControllerError) -> ReadResult {
        do {
            return try await client.read(paths, session: session, isFabricFiltered: fabricFiltered)
        } catch {
            throw ControllerError(error, context: context)
        }
    }
}

extension TLVElement {
    /// A context-tagged member for command fields.
    static func field(_ tag: UInt8, _ value: TLVValue) -> TLVElement { TLVElement(tag: .context(tag), value) }
    static func field(_ tag: UInt8, _ value: UInt64) -> TLVElement { field(tag, .unsigned(value)) }
    static func field(_ tag: UInt8, _ value: [UInt8]) -> TLVElement { field(tag, .bytes(value)) }
}

extension ConcreteCommandPath {
    /// A command on endpoint 0.
    static func root(_ cluster: ClusterID, _ command: CommandID) -> ConcreteCommandPath {
        ConcreteCommandPath(endpoint: .root, cluster: cluster, command: command)
    }
}

extension ConcreteAttributePath {
    /// An attribute on endpoint 0.
    static func root(_ cluster: ClusterID, _ attribute: AttributeID) -> ConcreteAttributePath {
        ConcreteAttributePath(endpoint: .root, cluster: cluster, attribute: attribute)
    }
}
