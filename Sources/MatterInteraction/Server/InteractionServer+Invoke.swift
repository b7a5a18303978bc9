import MatterCore
import MatterTransport

extension InteractionServer {
    /// InvokeRequest (or the follow-up of a TimedRequest when `timedWindow`) → InvokeResponse, chunked
    /// when the responses do not fit one message.
    func handleInvoke(_ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor, timedWindow: Bool) {
        statistics.invokeRequests += 1
        guard let request = try? InvokeRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard request.timedRequest == timedWindow else { return respond(.timedRequestMismatch, on: exchange) }
        let commands = request.invokeRequests
        guard !commands.isEmpty, commands.count <= configuration.maxPathsPerInvoke,
            commands.allSatisfy({ $0.path.endpoint != nil })
        else { return respond(.invalidAction, on: exchange) }
        if commands.count > 1 {
            // A batch needs distinct CommandRefs and distinct paths.
            let refs = commands.compactMap(\.commandRef)
            guard refs.count == commands.count, Set(refs).count == refs.count,
                Set(commands.map(\.path)).count == commands.count
            else { return respond(.invalidAction, on: exchange) }
        }
        let context = InteractionContext(subject: subject, session: message.session, isTimed: timedWindow)
        var responses: [InvokeResponseIB] = []
        for command in commands {
            guard let path = command.path.concrete else { continue }
            responses.append(processor.invoke(command, concrete: path, context: context))
        }
        if request.suppressResponse { return exchange.close() }
        let messages = chunkInvokeResponses(responses)
        if messages.count == 1 { return reply(messages[0], on: exchange) }
        let steps = messages.map {
            ChunkedTransmission.Step(
                opcode: .invokeResponse, payload: $0.encode(), awaitsStatus: $0.moreChunkedMessages)
        }
        transmit(makeTransmission(exchange, steps: steps) { _ in exchange.close() })
    }

    /// InvokeResponse messages of at most `maxPayloadSize` bytes, split on InvokeResponseIB boundaries.
    func chunkInvokeResponses(_ responses: [InvokeResponseIB]) -> [InvokeResponseMessage] {
        let overhead = InvokeResponseMessage(invokeResponses: [], moreChunkedMessages: true).encode().count
        var messages: [InvokeResponseMessage] = []
        var current: [InvokeResponseIB] = []
        var size = overhead
        for response in responses {
            let length = ReportChunker.encodedSize(response)
            if size + length > configuration.maxPayloadSize, !current.isEmpty {
                messages.append(InvokeResponseMessage(invokeResponses: current, moreChunkedMessages: true))
                current = []
                size = overhead
            }
            current.append(response)
            size += length
        }
        messages.append(InvokeResponseMessage(invokeResponses: current))
        return messages
    }
}
