import MatterCore
import MatterTransport

extension InteractionServer {
    /// TimedRequest → StatusResponse(SUCCESS); the WriteRequest or InvokeRequest that follows on the same
    /// exchange must carry TimedRequest=true and arrive before the timeout (else TIMEOUT).
    func handleTimed(_ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor) {
        statistics.timedRequests += 1
        guard let request = try? TimedRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        let deadline = now + UInt64(request.timeout)
        do {
            try exchange.send(
                opcode: InteractionOpcode.statusResponse.rawValue,
                payload: StatusResponseMessage(status: .success).encode())
        } catch {
            return exchange.close()
        }
        exchange.onMessage = { [weak self] node, next, exchange in
            guard let self else { return }
            self.untrack(exchange)
            exchange.onMessage = nil
            exchange.onFailure = nil
            guard self.now <= deadline else { return self.respond(.timeout, on: exchange) }
            switch InteractionOpcode(rawValue: next.opcode) {
            case .writeRequest where next.protocolID == .interactionModel:
                self.handleWrite(next, exchange: exchange, subject: subject, timedWindow: true, node: node)
            case .invokeRequest where next.protocolID == .interactionModel:
                self.handleInvoke(next, exchange: exchange, subject: subject, timedWindow: true)
            default:
                self.respond(.invalidAction, on: exchange)
            }
        }
        exchange.onFailure = { [weak self] _, _, exchange in self?.untrack(exchange) }
        // Keep the exchange a while past the deadline so a late request is told TIMEOUT.
        let expiry = deadline + configuration.responseTimeout
        track(
            exchange, deadline: { expiry },
            expire: { [weak self] in
                self?.untrack(exchange)
                exchange.close()
            })
    }
}
