import Dispatch
import MatterCore

extension TransportNode {
    /// Runs whatever is due now: retransmissions, give-ups, standalone acks, response timeouts.
    /// Dispatch timers call it; tests with a `ManualClock` call it after advancing the clock.
    public func serviceTimers() {
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
                exchange?.fail(.noAcknowledgement(transmissions: MRPBackoff.maxTransmissions))
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

    /// Makes sure the one Dispatch timer fires no later than the earliest deadline.
    ///
    /// Rescheduling a Dispatch timer wakes Dispatch's manager thread, and nearly every message moves
    /// some deadline, so the timer is only moved when something falls due before it would fire. A
    /// timer that fires early (its deadline was acknowledged away) finds nothing due and is pointed at
    /// the next deadline by `serviceTimers`; with nothing left it stays idle (the timer is one-shot).
    func rearmTimer() {
        guard configuration.usesDispatchTimers, !stopped else { return }
        guard let deadline = nextDeadline else { return }
        if let armed = timerDeadline, armed <= deadline { return }
        let timer = self.timer ?? makeTimer()
        let delay = deadline > now ? deadline - now : 0
        timer.schedule(deadline: .now() + .milliseconds(Int(delay)), leeway: .milliseconds(1))
        timerDeadline = deadline
    }

    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: transport.queue)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.assumeIsolated { node in
                node.timerDeadline = nil
                node.serviceTimers()
            }
        }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        self.timer = timer
        return timer
    }
}
