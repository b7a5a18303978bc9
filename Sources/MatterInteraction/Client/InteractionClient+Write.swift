import MatterCore
import MatterTLV
package import MatterTransport

extension InteractionClient {
    /// Writes attributes; returns one result per item, in order. When the request does not fit one
    /// message it is sent in chunks, a too-big list as replace-all (empty array) plus one append per
    /// entry, as the SDK does. `timedTimeout` (ms) sends a TimedRequest first; a timed write must fit
    /// one message.
    package func write(_ items: [WriteItem], session: SessionID, timedTimeout: UInt16? = nil)
        async throws(InteractionError) -> [WriteResult]
    {
        guard !items.isEmpty else { return [] }
        let node = try requireNode()
        return try await performWrite(node, items, session, timedTimeout)
    }

    private func performWrite(
        _ node: isolated TransportNode, _ items: [WriteItem], _ session: SessionID,
        _ timedTimeout: UInt16?
    ) async throws(InteractionError) -> [WriteResult] {
        let chunks = chunkWrite(items, timed: timedTimeout != nil)
        if timedTimeout != nil, chunks.count > 1 {
            throw .invalidRequest("a timed write must fit one message (\(configuration.maxPayloadSize) bytes)")
        }
        let exchange = try openExchange(node, session)
        defer { exchange.close() }
        if let timedTimeout { try await openTimedWindow(node, exchange, timeout: timedTimeout) }
        var statuses: [[StatusIB]] = Array(repeating: [], count: items.count)
        for chunk in chunks {
            try send(chunk.message, on: exchange)
            let reply = try await receive(node, exchange)
            guard reply.opcode == InteractionOpcode.writeResponse.rawValue else {
                throw unexpected(reply, expected: "WriteResponse")
            }
            let responses = try WriteResponseMessage(decoding: reply.payload).writeResponses
            if responses.count == chunk.owners.count {
                // One status per AttributeDataIB, in order.
                for (owner, response) in zip(chunk.owners, responses) { statuses[owner].append(response.status) }
            } else {
                // A server that merged or dropped entries: match by path.
                for response in responses {
                    for owner in Set(chunk.owners) where items[owner].path == response.path.concrete {
                        statuses[owner].append(response.status)
                    }
                }
            }
        }
        return items.indices.map { index in
            let mine = statuses[index]
            let status = mine.first { !$0.isSuccess } ?? mine.first ?? StatusIB(.failure)
            return WriteResult(path: items[index].path, status: status)
        }
    }

    /// WriteRequest messages of at most `maxPayloadSize` bytes, each with the index of the item every
    /// AttributeDataIB comes from.
    func chunkWrite(_ items: [WriteItem], timed: Bool) -> [(message: WriteRequestMessage, owners: [Int])] {
        let overhead = WriteRequestMessage(timedRequest: timed, writeRequests: [], moreChunkedMessages: true)
            .encode().count
        var data: [(ib: AttributeDataIB, owner: Int)] = []
        for (owner, item) in items.enumerated() {
            let whole = AttributeDataIB(
                dataVersion: item.dataVersion, path: AttributePathIB(item.path), data: item.value)
            if overhead + ReportChunker.encodedSize(whole) > configuration.maxPayloadSize,
                case .array(let entries) = item.value
            {
                data.append(
                    (
                        AttributeDataIB(
                            dataVersion: item.dataVersion, path: AttributePathIB(item.path),
                            data: .array([])), owner
                    ))
                for entry in entries {
                    data.append(
                        (
                            AttributeDataIB(
                                dataVersion: item.dataVersion,
                                path: AttributePathIB(item.path, listIndex: .null), data: entry.value),
                            owner
                        ))
                }
            } else {
                data.append((whole, owner))
            }
        }
        var messages: [(message: WriteRequestMessage, owners: [Int])] = []
        var current: [AttributeDataIB] = []
        var owners: [Int] = []
        var size = overhead
        for (ib, owner) in data {
            let length = ReportChunker.encodedSize(ib)
            if size + length > configuration.maxPayloadSize, !current.isEmpty {
                messages.append(
                    (
                        WriteRequestMessage(
                            timedRequest: timed, writeRequests: current,
                            moreChunkedMessages: true), owners
                    ))
                current = []
                owners = []
                size = overhead
            }
            current.append(ib)
            owners.append(owner)
            size += length
        }
        messages.append((WriteRequestMessage(timedRequest: timed, writeRequests: current), owners))
        return messages
    }
}
