import MatterCore
package import MatterTransport

extension InteractionClient {
    /// Subscribes: the priming report (acknowledged chunk by chunk) comes back in the returned
    /// ``ClientSubscription``; later reports go to `onReport` (on the node's queue; empty ones are
    /// keep-alives). `onEnded` runs once when the subscription is lost: session closed, no report
    /// within MaxInterval plus ``Configuration/livenessAllowance``, or ``cancel(_:)``.
    package func subscribe(
        _ request: SubscribeRequestMessage, session: SessionID,
        onReport: @escaping @Sendable (SubscriptionReport) -> Void,
        onEnded: @escaping @Sendable (InteractionError) -> Void = { _ in }
    )
        async throws(InteractionError) -> ClientSubscription
    {
        let node = try requireNode()
        return try await performSubscribe(node, request, session, onReport, onEnded)
    }

    private func performSubscribe(
        _ node: isolated TransportNode, _ request: SubscribeRequestMessage,
        _ session: SessionID, _ onReport: @escaping @Sendable (SubscriptionReport) -> Void,
        _ onEnded: @escaping @Sendable (InteractionError) -> Void
    )
        async throws(InteractionError) -> ClientSubscription
    {
        let exchange = try openExchange(node, session)
        defer { exchange.close() }
        try send(request, on: exchange)
        var assembler = ReportAssembler()
        var subscriptionID: UInt32?
        // Reports that came for this subscription before this task took in its SubscribeResponse are
        // handled now that it is known, or refused if it never was.
        defer {
            if let subscriptionID {
                let key = SubscriptionKey(session: session, id: subscriptionID)
                for early in establishing.removeValue(forKey: key) ?? [] {
                    if subscriptions[key] != nil {
                        handleUnsolicited(early.message, on: early.exchange, node: node)
                    } else {
                        respond(.invalidSubscription, on: early.exchange)
                    }
                }
            }
        }
        while true {
            let message = try await receive(node, exchange)
            if message.opcode == InteractionOpcode.subscribeResponse.rawValue {
                let response = try SubscribeResponseMessage(decoding: message.payload)
                guard subscriptionID == nil || subscriptionID == response.subscriptionID else {
                    throw .malformed(
                        message: "SubscribeResponse", reason: "subscription ID differs from the priming report's")
                }
                let subscription = ClientSubscription(
                    id: response.subscriptionID, session: session,
                    maxInterval: response.maxInterval, priming: assembler.result)
                let deadline = now + UInt64(response.maxInterval) * 1000 + configuration.livenessAllowance
                subscriptions[SubscriptionKey(session: session, id: response.subscriptionID)] =
                    Subscription(subscription, deadline: deadline, onReport: onReport, onEnded: onEnded)
                rescheduleTimer()
                return subscription
            }
            guard message.opcode == InteractionOpcode.reportData.rawValue else {
                throw unexpected(message, expected: "ReportData or SubscribeResponse")
            }
            let report = try ReportDataMessage(decoding: message.payload)
            if subscriptionID == nil, let id = report.subscriptionID {
                subscriptionID = id
                establishing[SubscriptionKey(session: session, id: id)] = []
            }
            assembler.add(report)
            try send(StatusResponseMessage(status: .success), on: exchange)
        }
    }

    /// Forgets a subscription locally (as the SDK does, nothing is sent); the server learns it at the
    /// next report, which is answered INVALID_SUBSCRIPTION.
    package func cancel(_ subscription: ClientSubscription) async {
        guard let node = try? context.requireNode() else { return }
        await cancel(node, SubscriptionKey(session: subscription.session, id: subscription.id))
    }

    private func cancel(_ node: isolated TransportNode, _ key: SubscriptionKey) {
        guard let subscription = subscriptions.removeValue(forKey: key) else { return }
        subscription.onEnded(.subscriptionEnded("cancelled"))
        rescheduleTimer()
    }

    /// Runs every timer of the node due now (the node's ``MatterTransport/TransportNode/serviceTimers()``),
    /// this client's among them: it ends subscriptions whose server went silent. Tests with a
    /// `ManualClock` call it after moving the clock.
    package func serviceTimers() async {
        guard let node = try? context.requireNode() else { return }
        await node.serviceTimers()
    }

    /// The timer's action, on the node's queue.
    func runTimers() {
        let now = self.now
        for (key, subscription) in subscriptions where subscription.deadline <= now {
            subscriptions[key] = nil
            subscription.onEnded(
                .subscriptionEnded(
                    "no report within \(subscription.info.maxInterval) s + \(configuration.livenessAllowance) ms"))
        }
        rescheduleTimer()
    }

    func rescheduleTimer() { timer.schedule(at: subscriptions.values.map(\.deadline).min()) }
}
