import MatterCore
import MatterTransport

extension InteractionServer {
    /// State of a write interaction across its chunks.
    final class WriteState {
        let subject: SubjectDescriptor
        let session: SessionID
        let isTimed: Bool
        /// List attributes written, in first-write order, for ``DataModel/listWriteFinished(_:context:)``.
        var listPaths: [ConcreteAttributePath] = []
        var deadline: UInt64?

        init(subject: SubjectDescriptor, session: SessionID, isTimed: Bool) {
            self.subject = subject
            self.session = session
            self.isTimed = isTimed
        }

        var context: InteractionContext { InteractionContext(subject: subject, session: session, isTimed: isTimed) }
    }

    /// WriteRequest (first chunk, or the follow-up of a TimedRequest when `timedWindow`).
    func handleWrite(
        _ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor, timedWindow: Bool,
        node: isolated TransportNode
    ) {
        statistics.writeRequests += 1
        guard let request = try? WriteRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard request.timedRequest == timedWindow else { return respond(.timedRequestMismatch, on: exchange) }
        // A timed write must fit one message.
        if timedWindow, request.moreChunkedMessages { return respond(.invalidAction, on: exchange) }
        let state = WriteState(subject: subject, session: message.session, isTimed: timedWindow)
        processWriteChunk(request, state: state, exchange: exchange, node: node)
    }

    private func processWriteChunk(
        _ request: WriteRequestMessage, state: WriteState, exchange: Exchange, node: isolated TransportNode
    ) {
        // Wildcards are for group writes only.
        guard request.writeRequests.allSatisfy({ $0.path.concrete != nil }) else {
            finishWrite(state)
            return respond(.invalidAction, on: exchange)
        }
        var statuses: [AttributeStatusIB] = []
        for item in request.writeRequests {
            guard let path = item.path.concrete else { continue }
            let status = processor.write(item, concrete: path, context: state.context)
            if status.isSuccess, processor.attribute(path)?.isList == true, !state.listPaths.contains(path) {
                state.listPaths.append(path)
            }
            statuses.append(AttributeStatusIB(path: item.path, status: status))
        }
        let response = WriteResponseMessage(writeResponses: statuses)
        guard request.moreChunkedMessages else {
            finishWrite(state)
            if request.suppressResponse { return exchange.close() }
            return reply(response, on: exchange)
        }
        do {
            try exchange.send(opcode: InteractionOpcode.writeResponse.rawValue, payload: response.encode())
        } catch {
            finishWrite(state)
            return exchange.close()
        }
        state.deadline = now + configuration.responseTimeout
        // The exchange's callbacks reach the write's state through the server's table of conversations.
        exchange.onMessage = { [weak self] node, next, exchange in
            self?.continueWrite(next, exchange: exchange, node: node)
        }
        exchange.onFailure = { [weak self] _, _, exchange in
            guard let self, let state = self.pending[ObjectIdentifier(exchange)]?.write else { return }
            self.untrack(exchange)
            self.finishWrite(state)
        }
        track(
            exchange, deadline: { state.deadline },
            expire: { [weak self] in
                self?.untrack(exchange)
                self?.finishWrite(state)
                exchange.close()
            })
        pending[ObjectIdentifier(exchange)]?.write = state
    }

    /// The next chunk of a write whose earlier chunk went to `exchange`.
    private func continueWrite(_ next: ReceivedMessage, exchange: Exchange, node: isolated TransportNode) {
        guard let state = pending[ObjectIdentifier(exchange)]?.write else { return }
        untrack(exchange)
        exchange.onMessage = nil
        exchange.onFailure = nil
        guard next.isMessage(.interactionModel, InteractionOpcode.writeRequest.rawValue),
            let request = try? WriteRequestMessage(decoding: next.payload),
            request.timedRequest == state.isTimed
        else {
            finishWrite(state)
            return respond(.invalidAction, on: exchange)
        }
        processWriteChunk(request, state: state, exchange: exchange, node: node)
    }

    private func finishWrite(_ state: WriteState) {
        let paths = state.listPaths
        state.listPaths = []
        for path in paths { dataModel.listWriteFinished(path, context: state.context) }
    }
}
