import MatterCore
package import MatterTransport

extension InteractionClient {
    /// Invokes commands in one InvokeRequest; returns one result per command, in order. Several commands
    /// carry CommandRefs 0, 1, ... (the server must accept that many paths per invoke). Chunked
    /// InvokeResponses are acknowledged and joined. `timedTimeout` (ms) sends a TimedRequest first.
    package func invoke(_ commands: [CommandRequest], session: SessionID, timedTimeout: UInt16? = nil)
        async throws(InteractionError) -> [InvokeResult]
    {
        guard !commands.isEmpty else { return [] }
        let node = try requireNode()
        return try await performInvoke(node, commands, session, timedTimeout)
    }

    /// Invokes one command.
    package func invoke(_ command: CommandRequest, session: SessionID, timedTimeout: UInt16? = nil)
        async throws(InteractionError) -> InvokeResult
    {
        let results = try await invoke([command], session: session, timedTimeout: timedTimeout)
        return results.first ?? .status(StatusIB(.noCommandResponse))
    }

    private func performInvoke(
        _ node: isolated TransportNode, _ commands: [CommandRequest], _ session: SessionID,
        _ timedTimeout: UInt16?
    ) async throws(InteractionError) -> [InvokeResult] {
        let batched = commands.count > 1
        let data = commands.enumerated().map { index, command in
            CommandDataIB(
                path: CommandPathIB(command.path), fields: command.fields,
                commandRef: batched ? UInt16(truncatingIfNeeded: index) : nil)
        }
        let exchange = try openExchange(node, session)
        defer { exchange.close() }
        if let timedTimeout { try await openTimedWindow(node, exchange, timeout: timedTimeout) }
        try send(InvokeRequestMessage(timedRequest: timedTimeout != nil, invokeRequests: data), on: exchange)
        var responses: [InvokeResponseIB] = []
        while true {
            let reply = try await receive(node, exchange)
            guard reply.opcode == InteractionOpcode.invokeResponse.rawValue else {
                throw unexpected(reply, expected: "InvokeResponse")
            }
            let message = try InvokeResponseMessage(decoding: reply.payload)
            responses += message.invokeResponses
            guard message.moreChunkedMessages else { break }
            try send(StatusResponseMessage(status: .success), on: exchange)
        }
        return commands.indices.map { index in
            let response =
                batched
                ? responses.first { $0.commandRef == UInt16(truncatingIfNeeded: index) }
                : responses.first
            switch response {
            case .command(let data)?: return .response(command: data.path.command, fields: data.fields)
            case .status(let status)?: return .status(status.status)
            case nil: return .status(StatusIB(.noCommandResponse))
            }
        }
    }
}
