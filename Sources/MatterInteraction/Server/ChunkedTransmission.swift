import MatterTransport

/// Sends messages one after another on one exchange, waiting for the peer's StatusResponse(SUCCESS)
/// after each message that asks for one (chunked reports, subscription reports, chunked invoke
/// responses). Runs on the node's queue through the exchange's callbacks.
final class ChunkedTransmission {
    struct Step {
        let opcode: InteractionOpcode
        let payload: [UInt8]
        /// The peer answers this message with a StatusResponse before the next step.
        let awaitsStatus: Bool
    }

    let exchange: Exchange
    private var steps: [Step]
    private var index = 0
    private var finished = false
    private let completion: (Result<Void, InteractionError>) -> Void
    /// When the awaited StatusResponse is overdue (clock milliseconds); the server's timer expires it.
    private(set) var deadline: UInt64?
    private let responseTimeout: UInt64
    private let now: () -> UInt64

    init(
        exchange: Exchange, steps: [Step], responseTimeout: UInt64, now: @escaping () -> UInt64,
        completion: @escaping (Result<Void, InteractionError>) -> Void
    ) {
        self.exchange = exchange
        self.steps = steps
        self.responseTimeout = responseTimeout
        self.now = now
        self.completion = completion
    }

    /// ReportData messages; the last one awaits a StatusResponse only if `finalAwaitsStatus`.
    convenience init(
        exchange: Exchange, reports: [ReportDataMessage], finalAwaitsStatus: Bool,
        responseTimeout: UInt64, now: @escaping () -> UInt64,
        completion: @escaping (Result<Void, InteractionError>) -> Void
    ) {
        let steps = reports.enumerated().map { index, report in
            Step(
                opcode: .reportData, payload: report.encode(),
                awaitsStatus: index < reports.count - 1 || finalAwaitsStatus)
        }
        self.init(exchange: exchange, steps: steps, responseTimeout: responseTimeout, now: now, completion: completion)
    }

    var isFinished: Bool { finished }

    /// Starts sending. The server routes the exchange's messages and failure here (``received(_:)``,
    /// ``failed(_:)``) while it tracks the transmission.
    func start() {
        sendCurrent()
    }

    /// The exchange failed (no acknowledgement, session gone).
    func failed(_ error: TransportError) {
        finish(.failure(.transport(error)))
    }

    /// Ends the transmission because the StatusResponse did not come in time.
    func expire() {
        finish(.failure(.transport(.responseTimeout(milliseconds: responseTimeout))))
    }

    private func sendCurrent() {
        guard index < steps.count else { return finish(.success(())) }
        let step = steps[index]
        do {
            try exchange.send(opcode: step.opcode.rawValue, payload: step.payload)
        } catch {
            return finish(.failure(.transport(error)))
        }
        if step.awaitsStatus {
            deadline = now() + responseTimeout
        } else {
            index += 1
            sendCurrent()
        }
    }

    func received(_ message: ReceivedMessage) {
        guard !finished else { return }
        guard message.isMessage(.interactionModel, InteractionOpcode.statusResponse.rawValue),
            let status = try? StatusResponseMessage(decoding: message.payload)
        else {
            try? exchange.send(
                opcode: InteractionOpcode.statusResponse.rawValue,
                payload: StatusResponseMessage(status: .invalidAction).encode())
            return finish(.failure(.unexpectedMessage(opcode: message.opcode, expected: "StatusResponse")))
        }
        guard status.status.isSuccess else { return finish(.failure(.status(status.status))) }
        deadline = nil
        index += 1
        sendCurrent()
    }

    private func finish(_ result: Result<Void, InteractionError>) {
        guard !finished else { return }
        finished = true
        deadline = nil
        exchange.onMessage = nil
        exchange.onFailure = nil
        completion(result)
    }
}
