package import MatterTransport

extension InteractionClient {
    /// Reads attributes and events. Chunked reports are acknowledged and reassembled; per-path
    /// failures come back as statuses in the result, a failure of the whole read as a thrown
    /// ``InteractionError/status(_:)``.
    package func read(_ request: ReadRequestMessage, session: SessionID) async throws(InteractionError) -> ReadResult {
        let node = try requireNode()
        return try await performRead(node, request, session)
    }

    /// Reads attributes by path (IsFabricFiltered true, as the SDK's default).
    package func read(_ paths: [AttributePathIB], session: SessionID, isFabricFiltered: Bool = true)
        async throws(InteractionError) -> ReadResult
    {
        try await read(
            ReadRequestMessage(attributeRequests: paths, isFabricFiltered: isFabricFiltered), session: session)
    }

    private func performRead(_ node: isolated TransportNode, _ request: ReadRequestMessage, _ session: SessionID)
        async throws(InteractionError) -> ReadResult
    {
        let exchange = try openExchange(node, session)
        defer { exchange.close() }
        try send(request, on: exchange)
        var assembler = ReportAssembler()
        while true {
            let message = try await receive(node, exchange)
            guard message.opcode == InteractionOpcode.reportData.rawValue else {
                throw unexpected(message, expected: "ReportData")
            }
            let report = try ReportDataMessage(decoding: message.payload)
            assembler.add(report)
            if report.moreChunkedMessages {
                try send(StatusResponseMessage(status: .success), on: exchange)
                continue
            }
            if !report.suppressResponse { try send(StatusResponseMessage(status: .success), on: exchange) }
            return assembler.result
        }
    }
}
