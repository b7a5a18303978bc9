import MatterCore

extension TransportNode {
    /// Runs every timer of the node due now (``NodeScheduler/service()``): the transport's
    /// retransmissions, give-ups, standalone acks and response timeouts, and the timers of what runs
    /// on the node (interaction engine, data model). Tests with a `ManualClock` call it after
    /// advancing the clock.
    package func serviceTimers() { scheduler.service() }

    /// The transport's timer action: retransmissions, give-ups, standalone acks, response timeouts.
    func serviceTransportTimers() {
        guard !stopped else { return }
        let now = self.now
        for action in retransmissions.due(at: now) {
            switch action {
            case .resend(let key, let datagram, let destination):
                let wait = backoff(
                    afterTransmissions: retransmissions.transmissions(of: key), session: key.session,
                    exchange: exchanges[key])
                retransmissions.reschedule(key, nextDue: now + wait)
                do {
                    try transport.send(datagram, to: destination)
                    statistics.datagramsSent += 1
                    statistics.retransmissions += 1
                } catch {
                    log.debug("retransmission on \(key) failed: \(error)")
                }
            case .giveUp(let key):
                let exchange = exchanges[key] ?? closingExchanges[key]
                closingExchanges[key] = nil
                statistics.acknowledgementsMissed += 1
                log.info("\(key): no acknowledgement after \(MRPBackoff.maxTransmissions) transmissions")
                exchange?.fail(.noAcknowledgement(transmissions: MRPBackoff.maxTransmissions), node: self)
            }
        }
        for exchange in exchanges.values {
            if let ack = exchange.pendingAck, ack.deadline <= now {
                exchange.pendingAck = nil
                sendStandaloneAck(key: exchange.key, counter: ack.counter)
            }
            if let deadline = exchange.responseDeadline, deadline <= now, exchange.waiter != nil {
                exchange.timeOutWait()
            }
        }
        rearmTimer()
    }

    /// The earliest time anything is due.
    var nextDeadline: UInt64? {
        var deadline = retransmissions.nextDeadline ?? .max
        for exchange in exchanges.values {
            if let ack = exchange.pendingAck, ack.deadline < deadline { deadline = ack.deadline }
            if exchange.waiter != nil, let response = exchange.responseDeadline, response < deadline {
                deadline = response
            }
        }
        return deadline == .max ? nil : deadline
    }

    /// Points the transport's timer on the node's scheduler at the earliest deadline (the scheduler
    /// moves its Dispatch timer only when that is earlier than what it is set for).
    func rearmTimer() {
        guard !stopped else { return }
        let deadline = nextDeadline
        guard let timer else {
            if deadline != nil { makeTimer().schedule(at: deadline) }
            return
        }
        timer.schedule(at: deadline)
    }

    private func makeTimer() -> NodeTimer {
        let timer = scheduler.makeTimer { [weak self] in
            guard let self else { return }
            self.assumeIsolated { node in node.serviceTransportTimers() }
        }
        self.timer = timer
        return timer
    }
}
