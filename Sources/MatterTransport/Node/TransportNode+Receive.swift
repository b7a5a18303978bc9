import MatterCore

extension TransportNode {
    /// The inbound path, on the node's queue: header → session → decrypt → counter check → ack
    /// bookkeeping → exchange. Bad datagrams are counted and dropped, never trapped on.
    func handleDatagram(_ datagram: Datagram) {
        guard !stopped else { return }
        statistics.datagramsReceived += 1
        var reader = ByteReader(datagram.bytes)
        guard let header = try? MessageHeader(from: &reader) else {
            statistics.droppedUndecodable += 1
            return
        }
        guard !header.privacy, header.sessionType == .unicast, !header.control else {
            statistics.droppedUnsupported += 1
            return
        }
        let session: SessionID
        let plaintext: [UInt8]
        let verdict: PeerMessageCounter.Verdict
        if header.isUnsecured {
            // The handshake initiator names itself; a responder's reply echoes our ephemeral ID.
            guard let ephemeral = UnsecuredAdmission.ephemeralNodeID(of: header) else {
                statistics.droppedUndecodable += 1
                return
            }
            session = .unsecured(peer: datagram.source, ephemeralNodeID: ephemeral)
            if unsecuredPeers[session] == nil {
                // Only a peer's initiating message opens an unsecured session here. An acknowledgement
                // for a handshake we already finished still settles its retransmission.
                var peek = reader
                guard let payloadHeader = try? PayloadHeader(from: &peek) else {
                    statistics.droppedUndecodable += 1
                    return
                }
                var settled = false
                if let acknowledged = payloadHeader.acknowledgedCounter {
                    let key = ExchangeKey(
                        session: session, exchangeID: payloadHeader.exchangeID,
                        isInitiator: !payloadHeader.isInitiator)
                    settled = retransmissions.acknowledge(key, counter: acknowledged)
                    if settled { closingExchanges[key] = nil }
                }
                switch UnsecuredAdmission.decide(
                    header: header, payload: payloadHeader, settledRetransmission: settled)
                {
                case .open: break
                case .settled:
                    rearmTimer()
                    return
                case .unknownSession:
                    statistics.droppedUnknownSession += 1
                    rearmTimer()
                    return
                }
                insertUnsecured(session, UnsecuredPeer(lastActivity: now))
            }
            plaintext = reader.readRest()
            verdict = unsecuredPeers[session]?.counter.verdict(for: header.messageCounter) ?? .new
            if verdict == .new { unsecuredPeers[session]?.counter.commit(header.messageCounter) }
            unsecuredPeers[session]?.lastActivity = now
        } else {
            guard var state = secureSessions[header.sessionID] else {
                statistics.droppedUnknownSession += 1
                return
            }
            let aad = Array(datagram.bytes[0..<reader.offset])
            let nonce = MessageSecurity.nonce(
                securityFlags: header.securityFlags, counter: header.messageCounter,
                nodeID: state.peerNonceNodeID)
            guard reader.remaining >= MessageSecurity.micLength,
                let opened = MessageSecurity.open(
                    key: state.parameters.keys.decrypt, nonce: nonce, aad: aad,
                    sealed: reader.readRest())
            else {
                statistics.droppedUnauthenticated += 1
                return
            }
            plaintext = opened
            verdict = state.peerCounter.verdict(for: header.messageCounter)
            if verdict == .new { state.peerCounter.commit(header.messageCounter) }
            state.lastReceived = now
            state.lastActivity = now
            state.parameters.peerAddress = datagram.source
            secureSessions[header.sessionID] = state
            session = .secure(localSessionID: header.sessionID)
        }
        var payloadReader = ByteReader(plaintext)
        guard let payloadHeader = try? PayloadHeader(from: &payloadReader) else {
            statistics.droppedUndecodable += 1
            return
        }
        let key = ExchangeKey(
            session: session, exchangeID: payloadHeader.exchangeID,
            isInitiator: !payloadHeader.isInitiator)
        if let acknowledged = payloadHeader.acknowledgedCounter, retransmissions.acknowledge(key, counter: acknowledged)
        {
            closingExchanges[key] = nil
        }
        var exchange = exchanges[key]
        let handler = exchange == nil ? handlers[payloadHeader.protocolID] : nil
        switch InboundRoute.decide(
            verdict: verdict, payload: payloadHeader, hasExchange: exchange != nil, hasHandler: handler != nil)
        {
        case .duplicate(let acknowledge):
            statistics.droppedDuplicate += 1
            log.debug(
                "duplicate message counter \(header.messageCounter) on \(session) dropped (replay or retransmission)")
            if acknowledge { sendStandaloneAck(key: key, counter: header.messageCounter) }
            rearmTimer()
            return
        case .acknowledgementOnly:
            rearmTimer()
            return
        case .unhandled(let acknowledge):
            statistics.droppedUnhandled += 1
            if acknowledge { sendStandaloneAck(key: key, counter: header.messageCounter) }
            rearmTimer()
            return
        case .openExchange:
            let created = Exchange(key: key, protocolID: payloadHeader.protocolID, node: self)
            created.openedByPeer = true
            exchanges[key] = created
            exchange = created
        case .deliver:
            break
        }
        let message = ReceivedMessage(
            session: session, protocolID: payloadHeader.protocolID,
            opcode: payloadHeader.opcode, exchangeID: payloadHeader.exchangeID,
            payload: payloadReader.readRest(), peerAddress: datagram.source,
            messageCounter: header.messageCounter, sourceNodeID: header.source)
        guard let exchange else { return }
        if payloadHeader.needsAck {
            // One pending acknowledgement per exchange: flush an older one first.
            if let older = exchange.pendingAck { sendStandaloneAck(key: key, counter: older.counter) }
            exchange.pendingAck = (header.messageCounter, now + MRPBackoff.standaloneAckTimeout)
        }
        if let handler {
            exchange.heardFromPeer = true
            handler.handleUnsolicited(message, on: exchange, node: self)
        } else {
            exchange.deliver(message, node: self)
        }
        rearmTimer()
    }
}
