import MatterCore
import MatterTLV
public import MatterTransport

extension InteractionClient {
    /// Writes attributes; returns one result per item, in order. When the request does not fit one
    /// message it is sent in chunks, a too-big list as replace-all (empty array) plus one append per
    /// entry, as the SDK does. `timedTimeout` (ms) sends a TimedRequest first; a timed write must fit
    /// one message.
    public func write(_ items: [WriteItem], session: SessionID, timedTimeout: UInt16? = nil)
        async throws(InteractionError) -> [WriteResult]
    {
        guard !items.isEmpty else { return [] }
        let node = try requireNode()
        return try await performWrite(node, items, session, timedTimeout)
    }

    private func performWrite(_ node: isolated TransportNode, _ items: [WriteItem], _ session: SessionID,
                              _ timedTimeout: UInt16?) async throws(InteractionError) -> [WriteResult]
    {
        let chunks = chunkWrite(items, timed: timedTimeout != nil)
        if timedTimeout != nil, chunks.count > 1 {
            throw .invalidRequest("a timed write must fit one message (\(configuration.maxPayloadSize) bytes)")
        }
        let exchange = try openExchange(node, session)
        defer { exchange.close() }
        if let timedTimeout { try await openTimedWindow(node, exchange, timeout: timedTimeout) }
        var statuses: [AttributeStatusIB] = []
        for chunk in chunks {
            try send(chunk, on: exchange)
            let reply = try await receive(node, exchange)
            guard reply.opcode == InteractionOpcode.writeResponse.rawValue else {
                throw unexpected(reply, expected: "WriteResponse")
            }
            statuses += try WriteResponseMessage(decoding: reply.payload).writeResponses
        }
        return items.map { item in
            let mine = statuses.filter { $0.path.concrete == item.path }.map(\.status)
            let status = mine.first { !$0.isSuccess } ?? mine.first ?? StatusIB(.failure)
            return WriteResult(path: item.path, status: status)
        }
    }

    /// WriteRequest messages of at most `maxPayloadSize` bytes.
    func chunkWrite(_ items: [WriteItem], timed: Bool) -> [WriteRequestMessage] {
        let overhead = WriteRequestMessage(timedRequest: timed, writeRequests: [], moreChunkedMessages: true)
            .encode().count
        var data: [AttributeDataIB] = []
        for item in items {
            let whole = AttributeDataIB(dataVersion: item.dataVersion, path: AttributePathIB(item.path), data: item.value)
            if overhead + ReportChunker.encodedSize(whole) > configuration.maxPayloadSize,
               case .array(let entries) = item.value
            {
                data.append(AttributeDataIB(dataVersion: item.dataVersion, path: AttributePathIB(item.path), data: .array([])))
                for entry in entries {
                    data.append(AttributeDataIB(dataVersion: item.dataVersion,
                                                path: AttributePathIB(item.path, listIndex: .null), data: entry.value))
                }
            } else {
                data.append(whole)
            }
        }
        var messages: [WriteRequestMessage] = []
        var current: [AttributeDataIB] = []
        var size = overhead
        for ib in data {
            let length = ReportChunker.encodedSize(ib)
            if size + length > configuration.maxPayloadSize, !current.isEmpty {
                messages.append(WriteRequestMessage(timedRequest: timed, writeRequests: current, moreChunkedMessages: true))
                current = []
                size = overhead
            }
            current.append(ib)
            size += length
        }
        messages.append(WriteRequestMessage(timedRequest: timed, writeRequests: current))
        return messages
    }
}
