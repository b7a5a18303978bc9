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
    func handleWrite(_ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor, timedWindow: Bool) {
        guard let request = try? WriteRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard request.timedRequest == timedWindow else { return respond(.timedRequestMismatch, on: exchange) }
        // A timed write must fit one message.
        if timedWindow, request.moreChunkedMessages { return respond(.invalidAction, on: exchange) }
        let state = WriteState(subject: subject, session: message.session, isTimed: timedWindow)
        processWriteChunk(request, state: state, exchange: exchange)
    }

    private func processWriteChunk(_ request: WriteRequestMessage, state: WriteState, exchange: Exchange) {
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
        exchange.onMessage = { [weak self] next, exchange in
            guard let self else { return }
            self.untrack(exchange)
            exchange.onMessage = nil
            exchange.onFailure = nil
            guard next.isMessage(.interactionModel, InteractionOpcode.writeRequest.rawValue),
                let request = try? WriteRequestMessage(decoding: next.payload),
                request.timedRequest == state.isTimed
            else {
                self.finishWrite(state)
                return self.respond(.invalidAction, on: exchange)
            }
            self.processWriteChunk(request, state: state, exchange: exchange)
        }
        exchange.onFailure = { [weak self] _, exchange in
            self?.untrack(exchange)
            self?.finishWrite(state)
        }
        track(
            exchange, deadline: { state.deadline },
            expire: { [weak self] in
                self?.untrack(exchange)
                self?.finishWrite(state)
                exchange.close()
            })
    }

    private func finishWrite(_ state: WriteState) {
        let paths = state.listPaths
        state.listPaths = []
        for path in paths { dataModel.listWriteFinished(path, context: state.context) }
    }
}
