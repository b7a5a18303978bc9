import MatterCore

extension TransportNode {
    /// Builds, protects and sends one message on `exchange`; reliable ones enter the retransmission table.
    func send(on exchange: Exchange, protocolID: ProtocolID, opcode: UInt8, payload: [UInt8], reliable: Bool)
        throws(TransportError)
    {
        guard !stopped else { throw .stopped }
        guard !exchange.isClosed else { throw .exchangeClosed }
        exchange.sendAttempts += 1
        if let failure = exchange.failure { throw failure }
        let key = exchange.key
        if reliable, retransmissions.entries[key] != nil { throw .messageOutstanding }
        let ack = exchange.pendingAck?.counter
        let payloadHeader = PayloadHeader(
            isInitiator: key.isInitiator, needsAck: reliable, acknowledgedCounter: ack,
            opcode: opcode, exchangeID: key.exchangeID, protocolID: protocolID)
        let (datagram, counter, destination) = try frame(payloadHeader, payload, session: key.session)
        exchange.pendingAck = nil
        do {
            try transport.send(datagram, to: destination)
            statistics.datagramsSent += 1
        } catch {
            // A reliable message is retried by MRP; an unreliable one reports the failure.
            guard reliable else { throw .socket(error) }
            log.debug("send to \(destination) failed (\(error)); MRP will retry")
        }
        if reliable {
            let wait = backoff(afterTransmissions: 1, session: key.session, exchange: exchange)
            retransmissions.add(
                key, datagram: datagram, destination: destination, counter: counter, now: now, wait: wait)
        }
        touch(key.session)
        rearmTimer()
    }

    /// Sends a standalone acknowledgement (Secure Channel opcode 0x10, A set, R clear).
    func sendStandaloneAck(key: ExchangeKey, counter: UInt32) {
        let header = PayloadHeader(
            isInitiator: key.isInitiator, needsAck: false, acknowledgedCounter: counter,
            opcode: SecureChannelOpcode.standaloneAck, exchangeID: key.exchangeID,
            protocolID: .secureChannel)
        do {
            let (datagram, _, destination) = try frame(header, [], session: key.session)
            try transport.send(datagram, to: destination)
            statistics.datagramsSent += 1
            statistics.standaloneAcksSent += 1
        } catch {
            log.debug("standalone ack on \(key) not sent: \(error)")
        }
    }

    /// Encodes the headers and payload for `session`, encrypting on secure sessions. Consumes a
    /// message counter.
    func frame(_ payloadHeader: PayloadHeader, _ payload: [UInt8], session: SessionID)
        throws(TransportError) -> (datagram: [UInt8], counter: UInt32, destination: UDPAddress)
    {
        var body = ByteWriter(capacity: payload.count + 16)
        payloadHeader.encode(into: &body)
        body.writeBytes(payload)
        switch session {
        case .unsecured(let peer, let ephemeral):
            guard var state = unsecuredPeers[session] else { throw .sessionNotFound(session) }
            let counter = unsecuredCounter
            unsecuredCounter &+= 1
            // The handshake initiator names itself (S); the responder echoes the initiator's ID (DSIZ 1).
            let header =
                payloadHeader.isInitiator
                ? MessageHeader(sessionID: 0, messageCounter: counter, source: ephemeral)
                : MessageHeader(sessionID: 0, messageCounter: counter, destination: .node(ephemeral))
            var writer = ByteWriter(capacity: 24 + body.bytes.count)
            header.encode(into: &writer)
            writer.writeBytes(body.bytes)
            state.lastActivity = now
            unsecuredPeers[session] = state
            return (writer.bytes, counter, peer)
        case .secure(let id):
            guard var state = secureSessions[id] else { throw .sessionNotFound(session) }
            guard state.nextCounter != UInt32.max else { throw .counterExhausted }
            let counter = state.nextCounter
            state.nextCounter += 1
            let header = MessageHeader(sessionID: state.parameters.peerSessionID, messageCounter: counter)
            let aad = header.encoded
            let nonce = MessageSecurity.nonce(
                securityFlags: header.securityFlags, counter: counter,
                nodeID: state.localNonceNodeID)
            let sealed: [UInt8]
            do {
                sealed = try MessageSecurity.seal(
                    key: state.parameters.keys.encrypt, nonce: nonce, aad: aad,
                    plaintext: body.bytes)
            } catch {
                throw .encryption(String(describing: error))
            }
            state.lastActivity = now
            secureSessions[id] = state
            return (aad + sealed, counter, state.parameters.peerAddress)
        }
    }

    /// MRP wait before the next transmission: the peer's active interval if it was heard within its
    /// active threshold (or on this exchange), else its idle interval; jittered.
    func backoff(afterTransmissions count: Int, session: SessionID, exchange: Exchange?) -> UInt64 {
        let mrp: MRPParameters
        let lastHeard: UInt64?
        switch session {
        case .unsecured:
            mrp = unsecuredPeers[session]?.mrp ?? .default
            lastHeard = nil
        case .secure(let id):
            mrp = secureSessions[id]?.parameters.peerMRP ?? .default
            lastHeard = secureSessions[id]?.lastReceived
        }
        let active =
            (exchange?.heardFromPeer ?? false)
            || lastHeard.map { now &- $0 < UInt64(mrp.activeThreshold) } ?? false
        let interval = active ? mrp.activeInterval : mrp.idleInterval
        return MRPBackoff.wait(
            afterTransmissions: count, interval: interval,
            jitter: UInt8(truncatingIfNeeded: random.next()))
    }

    func touch(_ session: SessionID) {
        if case .secure(let id) = session { secureSessions[id]?.lastActivity = now }
    }
}
