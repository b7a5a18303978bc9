import MatterCore

/// Identifies an exchange within a node: its session, its ID, and this node's role in it.
package struct ExchangeKey: Hashable, Sendable, CustomStringConvertible {
    package let session: SessionID
    package let exchangeID: UInt16
    /// True when this node initiated the exchange.
    package let isInitiator: Bool

    package var description: String { "\(session)/\(exchangeID)\(isInitiator ? "i" : "r")" }
}

/// A request/response conversation with a peer on one session (spec 4.10). Responders get one from
/// an `UnsolicitedMessageHandler`; initiators from `TransportNode.openExchange`.
///
/// Used only in its node's isolation (the handlers, and functions taking `isolated TransportNode`):
/// `send` and `close` enter the node with `assumeIsolated`, which traps anywhere else.
package final class Exchange: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: the node's handle, held by the node's own closures; checked at run time, as NIO's channel is.
    package let key: ExchangeKey
    package let protocolID: ProtocolID
    /// The node this exchange belongs to; the exchange's users get the node as the isolated
    /// parameter of their handler instead. Strong: a task may still hold the exchange after its owner
    /// dropped the node; the node drops its exchanges when they close, fail or the node stops, which
    /// breaks the cycle.
    let node: TransportNode

    /// Called, in the node's isolation, for each message that arrives while nobody awaits `receive`;
    /// set by responders that answer synchronously on the node's queue.
    package var onMessage: ((isolated TransportNode, ReceivedMessage, Exchange) -> Void)?
    /// Called, in the node's isolation, when the exchange fails (no acknowledgement, timeout, session
    /// gone).
    package var onFailure: ((isolated TransportNode, TransportError, Exchange) -> Void)?

    var pendingAck: (counter: UInt32, deadline: UInt64)?
    var waiter: CheckedContinuation<ReceivedMessage, any Error>?
    var responseDeadline: UInt64?
    var responseTimeout: UInt64 = 0
    var inbox: [ReceivedMessage] = []
    var failure: TransportError?
    /// True once something arrived on this exchange: MRP then treats the peer as active.
    var heardFromPeer = false
    /// True when a peer's message opened this exchange (it went to an unsolicited handler).
    var openedByPeer = false
    /// Messages this node tried to send on the exchange (standalone acknowledgements aside).
    var sendAttempts = 0
    /// Order in which closed exchanges started waiting for their last acknowledgement.
    var closingOrder: UInt64 = 0
    package private(set) var isClosed = false

    init(key: ExchangeKey, protocolID: ProtocolID, node: TransportNode) {
        self.key = key
        self.protocolID = protocolID
        self.node = node
    }

    package var session: SessionID { key.session }
    package var description: String { "exchange \(key)" }

    /// Sends a message on this exchange; reliable messages are retransmitted until acknowledged.
    package func send(opcode: UInt8, payload: [UInt8], reliable: Bool = true) throws(TransportError) {
        let result: Result<Void, TransportError> = node.assumeIsolated { node in
            Result { () throws(TransportError) in
                try node.send(on: self, protocolID: protocolID, opcode: opcode, payload: payload, reliable: reliable)
            }
        }
        try result.get()
    }

    /// Waits for the next message from the peer, at most `timeout` milliseconds (clock time).
    nonisolated(nonsending) package func receive(timeout: UInt64 = 10_000) async throws -> ReceivedMessage {
        try await node.receive(on: self, timeout: timeout)
    }

    /// Sends and waits for the reply.
    nonisolated(nonsending) package func request(opcode: UInt8, payload: [UInt8], timeout: UInt64 = 10_000) async throws
        -> ReceivedMessage
    {
        try send(opcode: opcode, payload: payload)
        return try await receive(timeout: timeout)
    }

    /// Closes the exchange: a pending acknowledgement is flushed, waiters fail, nothing more arrives.
    package func close() {
        node.assumeIsolated { node in node.close(self) }
    }

    /// Delivers an arrived message to the waiter, the handler, or the inbox.
    func deliver(_ message: ReceivedMessage, node: isolated TransportNode) {
        heardFromPeer = true
        if let waiter {
            self.waiter = nil
            responseDeadline = nil
            waiter.resume(returning: message)
        } else if let onMessage {
            onMessage(node, message, self)
        } else {
            inbox.append(message)
        }
    }

    func fail(_ error: TransportError, node: isolated TransportNode) {
        guard failure == nil else { return }
        failure = error
        if let waiter {
            self.waiter = nil
            responseDeadline = nil
            waiter.resume(throwing: error)
        }
        onFailure?(node, error, self)
    }

    /// Ends the current `receive` with a timeout; the exchange itself stays usable.
    func timeOutWait() {
        guard let waiter else { return }
        self.waiter = nil
        responseDeadline = nil
        waiter.resume(throwing: TransportError.responseTimeout(milliseconds: responseTimeout))
    }

    func markClosed() {
        isClosed = true
        onMessage = nil
        onFailure = nil
        if let waiter {
            self.waiter = nil
            waiter.resume(throwing: TransportError.exchangeClosed)
        }
    }
}

/// Handles the first message of exchanges that peers initiate for one protocol (PASE/CASE
/// responders, the interaction-model server). Owned by its node and called in the node's isolation.
package protocol UnsolicitedMessageHandler: AnyObject {
    func handleUnsolicited(_ message: ReceivedMessage, on exchange: Exchange, node: isolated TransportNode)
}
