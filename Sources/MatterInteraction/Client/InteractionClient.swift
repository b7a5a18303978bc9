import MatterCore
import MatterTLV
package import MatterTransport

/// The interaction-model client of a node: read, write, invoke and subscribe against a peer over an
/// existing secure session, with chunked reports reassembled and timed interactions handled.
///
/// Operations may be called from anywhere (they run on the node). The client also receives the
/// reports of its subscriptions, which servers send on exchanges they open: ``install(on:configuration:registersHandler:)``
/// registers it for protocol 0x0001 (a node that also serves passes it as the server's
/// ``InteractionServer/clientReportHandler`` instead). It reaches the node only through the node's
/// ``MatterTransport/NodeContext``. Confined to the node's queue, hence `@unchecked Sendable`.
package final class InteractionClient: UnsolicitedMessageHandler, @unchecked Sendable {
    // @unchecked: called from any task (operations hop onto the node); state is touched on its queue.
    /// Tunables.
    package struct Configuration: Sendable {
        /// Largest IM payload per message, bytes: large writes are chunked to fit.
        package var maxPayloadSize = 1024
        /// How long to wait for each response, milliseconds.
        package var responseTimeout: UInt64 = 10_000
        /// Beyond MaxInterval, how long a subscription may stay silent before it counts as lost,
        /// milliseconds (an allowance for MRP retransmissions).
        package var livenessAllowance: UInt64 = 10_000

        package init() {}
    }

    /// A subscription's live state.
    final class Subscription {
        let info: ClientSubscription
        let onReport: @Sendable (SubscriptionReport) -> Void
        let onEnded: @Sendable (InteractionError) -> Void
        var deadline: UInt64

        init(
            _ subscription: ClientSubscription, deadline: UInt64,
            onReport: @escaping @Sendable (SubscriptionReport) -> Void,
            onEnded: @escaping @Sendable (InteractionError) -> Void
        ) {
            info = subscription
            self.deadline = deadline
            self.onReport = onReport
            self.onEnded = onEnded
        }
    }

    struct SubscriptionKey: Hashable {
        let session: SessionID
        let id: UInt32
    }

    /// The node's scheduler, clock, sessions and exchanges.
    let context: NodeContext
    let configuration: Configuration
    let log = Logger(label: "interaction-client")
    var subscriptions: [SubscriptionKey: Subscription] = [:]
    /// Subscriptions whose priming report has come but whose SubscribeResponse the subscribing task has
    /// not yet taken in, with the reports that arrived for them meanwhile: the server may send its first
    /// report right after SubscribeResponse, and both datagrams may be read in one wake-up, before that
    /// task runs. Those reports wait here (unanswered) and are handled once the subscription is known.
    var establishing: [SubscriptionKey: [(message: ReceivedMessage, exchange: Exchange)]] = [:]
    /// Chunked subscription reports still arriving, by exchange: what came so far.
    var partialReports: [ObjectIdentifier: (key: SubscriptionKey, assembler: ReportAssembler)] = [:]
    /// The client's timer on the node's scheduler (subscriptions whose server went silent).
    lazy var timer: NodeTimer = context.scheduler.makeTimer { [weak self] in self?.runTimers() }

    init(context: NodeContext, configuration: Configuration) {
        self.context = context
        self.configuration = configuration
    }

    /// Creates the client for `node` and, unless `registersHandler` is false, registers it as the
    /// node's handler for protocol 0x0001 (to receive subscription reports). Its timers run on the
    /// node's scheduler and clock.
    package static func install(
        on node: isolated TransportNode, configuration: Configuration = Configuration(),
        registersHandler: Bool = true
    ) -> InteractionClient {
        let client = InteractionClient(context: node.context, configuration: configuration)
        if registersHandler { node.setUnsolicitedHandler(client, for: .interactionModel) }
        node.onSessionClosed { [weak client] _, session in client?.sessionClosed(session) }
        return client
    }

    var clock: any MatterClock { context.clock }
    var now: UInt64 { clock.nowMilliseconds() }

    /// The node, to run an operation in its isolation.
    func requireNode() throws(InteractionError) -> TransportNode {
        do {
            return try context.requireNode()
        } catch {
            throw .transport(error)
        }
    }

    // MARK: - Exchange helpers (on the node)

    func openExchange(_ node: isolated TransportNode, _ session: SessionID) throws(InteractionError) -> Exchange {
        do {
            return try node.openExchange(on: session, protocolID: .interactionModel)
        } catch {
            throw .transport(error)
        }
    }

    func send(_ message: some InteractionMessage, on exchange: Exchange) throws(InteractionError) {
        do {
            try exchange.send(opcode: type(of: message).opcode.rawValue, payload: message.encode())
        } catch {
            throw .transport(error)
        }
    }

    func receive(_ node: isolated TransportNode, _ exchange: Exchange) async throws(InteractionError)
        -> ReceivedMessage
    {
        do {
            let message = try await exchange.receive(timeout: configuration.responseTimeout)
            guard message.protocolID == .interactionModel else {
                throw InteractionError.unexpectedMessage(
                    opcode: message.opcode, expected: "an interaction-model message")
            }
            return message
        } catch {
            throw .from(error)
        }
    }

    /// Throws the status of a StatusResponse (even SUCCESS is unexpected where another message was due),
    /// or an unexpected-message error.
    func unexpected(_ message: ReceivedMessage, expected: String) -> InteractionError {
        if message.opcode == InteractionOpcode.statusResponse.rawValue,
            let status = try? StatusResponseMessage(decoding: message.payload), !status.status.isSuccess
        {
            return .status(status.status)
        }
        return .unexpectedMessage(opcode: message.opcode, expected: expected)
    }

    /// Sends a TimedRequest and waits for its StatusResponse(SUCCESS).
    func openTimedWindow(_ node: isolated TransportNode, _ exchange: Exchange, timeout: UInt16)
        async throws(InteractionError)
    {
        try send(TimedRequestMessage(timeout: timeout), on: exchange)
        let reply = try await receive(node, exchange)
        guard reply.opcode == InteractionOpcode.statusResponse.rawValue else {
            throw unexpected(reply, expected: "StatusResponse")
        }
        let status = try StatusResponseMessage(decoding: reply.payload).status
        guard status.isSuccess else { throw .status(status) }
    }

    // MARK: - Reports of subscriptions (server-initiated exchanges)

    package func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        guard message.opcode == InteractionOpcode.reportData.rawValue else {
            return respond(.invalidAction, on: exchange)
        }
        guard let report = try? ReportDataMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard let id = report.subscriptionID else { return respond(.invalidSubscription, on: exchange) }
        let key = SubscriptionKey(session: message.session, id: id)
        guard let subscription = subscriptions[key] else {
            if establishing[key] != nil {
                establishing[key]?.append((message, exchange))
                return
            }
            return respond(.invalidSubscription, on: exchange)
        }
        receiveChunk(report, assembler: ReportAssembler(), subscription: subscription, key: key, exchange: exchange)
    }

    private func receiveChunk(
        _ report: ReportDataMessage, assembler: ReportAssembler, subscription: Subscription, key: SubscriptionKey,
        exchange: Exchange
    ) {
        var assembler = assembler
        assembler.add(report)
        subscription.deadline = now + UInt64(subscription.info.maxInterval) * 1000 + configuration.livenessAllowance
        do {
            try send(StatusResponseMessage(status: .success), on: exchange)
        } catch {
            exchange.close()
            return
        }
        guard report.moreChunkedMessages else {
            exchange.close()
            let result = SubscriptionReport(subscriptionID: subscription.info.id, result: assembler.result)
            rescheduleTimer()
            subscription.onReport(result)
            return
        }
        // The next chunk finds what came so far in the client's table (the callbacks capture only the client).
        partialReports[ObjectIdentifier(exchange)] = (key, assembler)
        exchange.onMessage = { [weak self] _, next, exchange in self?.continueReport(next, exchange: exchange) }
        exchange.onFailure = { [weak self] _, _, exchange in
            self?.partialReports[ObjectIdentifier(exchange)] = nil
            exchange.close()
        }
    }

    /// The next chunk of a report whose earlier chunks came on `exchange`.
    private func continueReport(_ next: ReceivedMessage, exchange: Exchange) {
        guard let (key, assembler) = partialReports.removeValue(forKey: ObjectIdentifier(exchange)) else { return }
        guard next.isMessage(.interactionModel, InteractionOpcode.reportData.rawValue),
            let chunk = try? ReportDataMessage(decoding: next.payload)
        else { return respond(.invalidAction, on: exchange) }
        guard let subscription = subscriptions[key] else { return respond(.invalidSubscription, on: exchange) }
        receiveChunk(chunk, assembler: assembler, subscription: subscription, key: key, exchange: exchange)
    }

    func respond(_ status: IMStatus, on exchange: Exchange) {
        try? exchange.send(
            opcode: InteractionOpcode.statusResponse.rawValue,
            payload: StatusResponseMessage(status: status).encode())
        exchange.close()
    }

    func sessionClosed(_ session: SessionID) {
        for (key, subscription) in subscriptions where key.session == session {
            subscriptions[key] = nil
            subscription.onEnded(.subscriptionEnded("session closed"))
        }
        rescheduleTimer()
    }
}
