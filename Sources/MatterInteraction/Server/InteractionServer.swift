import Dispatch
import MatterCore
import MatterTLV
package import MatterTransport

/// The interaction-model server of a node: answers reads, writes, invokes, timed requests and
/// subscriptions from peers over a ``DataModel``, and sends subscription reports.
///
/// Confined to its node's queue (hence `@unchecked Sendable`): it runs inside the node's unsolicited
/// handler, exchange callbacks and its timer on the node's scheduler. It reaches the node only through
/// the node's ``MatterTransport/NodeContext``. Create it with ``install(on:dataModel:configuration:)``.
package final class InteractionServer: UnsolicitedMessageHandler, DataModelObserver, @unchecked Sendable {
    // @unchecked: registered with the node (an actor) as a handler; all state is touched on its queue.
    /// Tunables.
    package struct Configuration: Sendable {
        /// Largest IM payload per message, bytes: reports are chunked to fit. The default leaves room
        /// in a 1280-byte IPv6 datagram for the headers and the MIC.
        package var maxPayloadSize = 1024
        /// Commands accepted in one InvokeRequest (BasicInformation.MaxPathsPerInvoke).
        package var maxPathsPerInvoke = 1
        /// How long to wait for a StatusResponse between chunks, or for the next chunk of a write,
        /// milliseconds.
        package var responseTimeout: UInt64 = 30_000
        /// Upper bound the server may pick for a subscription's MaxInterval, seconds (the SDK's
        /// publisher limit).
        package var maxIntervalPublisherLimit: UInt16 = 3600
        /// Seed for subscription IDs; nil draws from the system's generator.
        package var randomSeed: UInt64?

        package init() {}
    }

    let dataModel: any DataModel
    /// The node's scheduler, clock, sessions and exchanges.
    let context: NodeContext
    let configuration: Configuration
    let processor: PathProcessor
    let log = Logger(label: "interaction")
    var random: SeededRandom
    var subscriptions: [UInt32: ServerSubscription] = [:]
    /// The requests peers made, by kind.
    package internal(set) var statistics = InteractionStatistics()
    /// Conversations that wait for the peer (chunk acknowledgements, write chunks, timed follow-ups).
    var pending: [ObjectIdentifier: PendingConversation] = [:]
    /// The server's timer on the node's scheduler (reports, keep-alives, expired waits).
    lazy var timer: NodeTimer = context.scheduler.makeTimer { [weak self] in self?.runTimers() }

    /// Maps a secure session to the subject that acts on it. Nil: ``SubjectDescriptor/init(session:)``.
    /// A device sets this to bind a PASE session to the fabric that AddNOC created. Set it on the node's
    /// queue.
    package var subjectResolver: ((SessionID, SecureSessionParameters) -> SubjectDescriptor)?
    /// Receives ReportData for subscriptions this node made as a client (a node that is both: install
    /// the client with `registersHandler: false` and set it here, on the node's queue).
    package var clientReportHandler: (any UnsolicitedMessageHandler)?

    init(context: NodeContext, dataModel: any DataModel, configuration: Configuration) {
        self.context = context
        self.dataModel = dataModel
        self.configuration = configuration
        self.processor = PathProcessor(dataModel: dataModel)
        self.random = SeededRandom(seed: configuration.randomSeed)
    }

    /// Creates the server for `node`: registers it for protocol 0x0001, as the data model's observer,
    /// and for session-closed notifications (subscriptions die with their session). Its timers run on
    /// the node's scheduler and clock.
    package static func install(
        on node: isolated TransportNode, dataModel: any DataModel,
        configuration: Configuration = Configuration()
    ) -> InteractionServer {
        let server = InteractionServer(context: node.context, dataModel: dataModel, configuration: configuration)
        node.setUnsolicitedHandler(server, for: .interactionModel)
        node.onSessionClosed { [weak server] _, session in server?.sessionClosed(session) }
        dataModel.observer = server
        return server
    }

    var clock: any MatterClock { context.clock }
    var now: UInt64 { clock.nowMilliseconds() }

    // MARK: - Dispatch of the first message of an exchange

    package func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode) {
        guard case .secure = message.session, let subject = subject(for: message.session) else {
            // The interaction model runs over secure sessions only.
            log.debug("dropping IM opcode \(message.opcode) on \(message.session)")
            exchange.close()
            return
        }
        switch InteractionOpcode(rawValue: message.opcode) {
        case .readRequest: handleRead(message, exchange: exchange, subject: subject)
        case .subscribeRequest: handleSubscribe(message, exchange: exchange, subject: subject)
        case .writeRequest: handleWrite(message, exchange: exchange, subject: subject, timedWindow: false, node: node)
        case .invokeRequest: handleInvoke(message, exchange: exchange, subject: subject, timedWindow: false)
        case .timedRequest: handleTimed(message, exchange: exchange, subject: subject)
        case .reportData where clientReportHandler != nil:
            clientReportHandler?.handleUnsolicited(message, on: exchange, node: node)
        case .statusResponse:
            // Nothing to answer: a status is never the start of an interaction.
            exchange.close()
        default:
            respond(.invalidAction, on: exchange)
        }
    }

    /// The subject acting on `session`, or nil when the session is gone.
    func subject(for session: SessionID) -> SubjectDescriptor? {
        guard let parameters = context.secureSession(session) else { return nil }
        return subjectResolver?(session, parameters) ?? SubjectDescriptor(session: parameters.kind)
    }

    /// Answers with a StatusResponse and closes the exchange.
    func respond(_ status: IMStatus, on exchange: Exchange) {
        do {
            try exchange.send(
                opcode: InteractionOpcode.statusResponse.rawValue,
                payload: StatusResponseMessage(status: status).encode())
        } catch {
            log.debug("\(exchange): StatusResponse \(status) not sent: \(error)")
        }
        exchange.close()
    }

    /// Sends one message and closes the exchange.
    func reply(_ message: some InteractionMessage, on exchange: Exchange) {
        do {
            try exchange.send(opcode: type(of: message).opcode.rawValue, payload: message.encode())
        } catch {
            log.debug("\(exchange): \(type(of: message).opcode) not sent: \(error)")
        }
        exchange.close()
    }

    // MARK: - Conversations that wait for the peer

    /// Something the server waits for on an exchange; expired by the timer.
    final class PendingConversation {
        let exchange: Exchange
        var deadline: () -> UInt64?
        let expire: () -> Void
        /// The transmission this conversation sends, which the exchange's messages go to.
        var transmission: ChunkedTransmission?
        /// The write whose next chunk the exchange waits for.
        var write: WriteState?

        init(exchange: Exchange, deadline: @escaping () -> UInt64?, expire: @escaping () -> Void) {
            self.exchange = exchange
            self.deadline = deadline
            self.expire = expire
        }
    }

    func track(_ exchange: Exchange, deadline: @escaping () -> UInt64?, expire: @escaping () -> Void) {
        pending[ObjectIdentifier(exchange)] = PendingConversation(
            exchange: exchange, deadline: deadline, expire: expire)
        rescheduleTimer()
    }

    func untrack(_ exchange: Exchange) {
        pending[ObjectIdentifier(exchange)] = nil
    }

    /// Sends `steps` on `exchange`, tracked for timeouts; `completion` runs once.
    func transmit(_ transmission: ChunkedTransmission) {
        let exchange = transmission.exchange
        track(
            exchange, deadline: { [weak transmission] in transmission?.deadline },
            expire: { [weak transmission] in
                transmission?.expire()
            })
        pending[ObjectIdentifier(exchange)]?.transmission = transmission
        // The exchange's callbacks reach the transmission through the server, which owns it until it
        // finishes (it clears them then).
        exchange.onMessage = { [weak self] _, message, exchange in
            self?.pending[ObjectIdentifier(exchange)]?.transmission?.received(message)
        }
        exchange.onFailure = { [weak self] _, error, exchange in
            self?.pending[ObjectIdentifier(exchange)]?.transmission?.failed(error)
        }
        transmission.start()
        rescheduleTimer()
    }

    func makeTransmission(
        _ exchange: Exchange, steps: [ChunkedTransmission.Step],
        completion: @escaping (Result<Void, InteractionError>) -> Void
    ) -> ChunkedTransmission {
        ChunkedTransmission(
            exchange: exchange, steps: steps, responseTimeout: configuration.responseTimeout,
            now: { [clock] in clock.nowMilliseconds() },
            completion: { [weak self] result in
                self?.untrack(exchange)
                completion(result)
            })
    }

    func makeReportTransmission(
        _ exchange: Exchange, reports: [ReportDataMessage], finalAwaitsStatus: Bool,
        completion: @escaping (Result<Void, InteractionError>) -> Void
    )
        -> ChunkedTransmission
    {
        ChunkedTransmission(
            exchange: exchange, reports: reports, finalAwaitsStatus: finalAwaitsStatus,
            responseTimeout: configuration.responseTimeout,
            now: { [clock] in clock.nowMilliseconds() },
            completion: { [weak self] result in
                self?.untrack(exchange)
                completion(result)
            })
    }

    var chunker: ReportChunker { ReportChunker(budget: configuration.maxPayloadSize) }
}
