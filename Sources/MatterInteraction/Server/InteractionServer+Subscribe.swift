import MatterCore
package import MatterTransport

extension InteractionServer {
    /// SubscribeRequest → priming ReportData chunk(s) carrying the SubscriptionId, each answered by a
    /// StatusResponse, then SubscribeResponse{id, MaxInterval}.
    func handleSubscribe(_ message: ReceivedMessage, exchange: Exchange, subject: SubjectDescriptor) {
        statistics.subscribeRequests += 1
        guard let request = try? SubscribeRequestMessage(decoding: message.payload) else {
            return respond(.invalidAction, on: exchange)
        }
        guard request.minIntervalFloor <= request.maxIntervalCeiling,
            !(request.attributeRequests.isEmpty && request.eventRequests.isEmpty),
            processor.isValid(readPaths: request.attributeRequests, eventPaths: request.eventRequests)
        else { return respond(.invalidAction, on: exchange) }
        if !request.keepSubscriptions {
            for (id, subscription) in subscriptions
            where subscription.isFromSamePeer(as: subject, session: message.session) {
                log.debug("subscription \(id) replaced (KeepSubscriptions=false)")
                subscriptions[id] = nil
            }
        }
        // MinIntervalFloor ≤ MaxInterval ≤ max(ceiling, publisher limit); like the SDK, take the ceiling.
        let maxInterval = min(
            max(request.maxIntervalCeiling, 1),
            max(request.maxIntervalCeiling, configuration.maxIntervalPublisherLimit))
        let id = newSubscriptionID()
        let subscription = ServerSubscription(
            id: id, session: message.session, subject: subject, request: request,
            maxInterval: maxInterval)
        // Registered before the priming read, so changes from now on are reported afterwards.
        subscriptions[id] = subscription
        let context = InteractionContext(
            subject: subject, session: message.session,
            isFabricFiltered: request.isFabricFiltered)
        let attributes = processor.readReports(
            request.attributeRequests, filters: request.dataVersionFilters,
            context: context)
        let minimum = Self.eventMinimum(request.eventFilters)
        let events = processor.eventReports(request.eventRequests, minimum: minimum, context: context)
        subscription.nextEventNumber = events.latest.map { $0 + 1 } ?? minimum
        let reports = chunker.chunk(attributeReports: attributes, eventReports: events.reports, subscriptionID: id)
        transmit(
            makeReportTransmission(exchange, reports: reports, finalAwaitsStatus: true) { [weak self] result in
                guard let self else { return exchange.close() }
                guard case .success = result, self.subscriptions[id] === subscription else {
                    self.log.debug("subscription \(id) not established: \(result)")
                    if self.subscriptions[id] === subscription { self.subscriptions[id] = nil }
                    return exchange.close()
                }
                self.reply(SubscribeResponseMessage(subscriptionID: id, maxInterval: maxInterval), on: exchange)
                subscription.isActive = true
                subscription.lastReport = self.now
                self.rescheduleTimer()
            })
    }

    func newSubscriptionID() -> UInt32 {
        while true {
            let id = UInt32(truncatingIfNeeded: random.next())
            if id != 0, subscriptions[id] == nil { return id }
        }
    }

    /// Sends the due report of `subscription` on a new exchange; the client's StatusResponse keeps it
    /// alive, anything else ends it.
    func sendReport(_ subscription: ServerSubscription) {
        let id = subscription.id
        guard let subject = subject(for: subscription.session) else {
            subscriptions[id] = nil
            return
        }
        let session = subscription.session
        guard let exchange = try? context.openExchange(on: session, protocolID: .interactionModel) else {
            log.debug("subscription \(id): cannot open an exchange; dropped")
            subscriptions[id] = nil
            return
        }
        let context = InteractionContext(
            subject: subject, session: subscription.session,
            isFabricFiltered: subscription.isFabricFiltered)
        var attributeReports: [AttributeReportIB] = []
        for path in subscription.dirty.sorted() {
            if let failure = processor.readFailure(path, subject: subject) {
                if subscription.isConcretelyRequested(path) {
                    attributeReports.append(
                        .status(
                            AttributeStatusIB(
                                path: AttributePathIB(path),
                                status: StatusIB(failure))))
                }
                continue
            }
            if let report = processor.read(
                path, context: context,
                concreteRequest: subscription.isConcretelyRequested(path))
            {
                attributeReports.append(report)
            }
        }
        subscription.dirty.removeAll()
        var eventReports: [EventReportIB] = []
        if subscription.eventsPending {
            let events = processor.eventReports(
                subscription.eventPaths, minimum: subscription.nextEventNumber,
                context: context)
            eventReports = events.reports
            if let latest = events.latest { subscription.nextEventNumber = latest + 1 }
            subscription.eventsPending = false
            subscription.urgentPending = false
        }
        let reports = chunker.chunk(attributeReports: attributeReports, eventReports: eventReports, subscriptionID: id)
        subscription.inFlight = true
        subscription.lastReport = now
        transmit(
            makeReportTransmission(exchange, reports: reports, finalAwaitsStatus: true) { [weak self] result in
                exchange.close()
                subscription.inFlight = false
                guard let self, self.subscriptions[id] === subscription else { return }
                if case .failure(let error) = result {
                    self.log.info("subscription \(id) ended: \(error)")
                    self.subscriptions[id] = nil
                }
                self.rescheduleTimer()
            })
    }

    /// Sends at once what every subscription has pending (changes, events), minimum intervals aside:
    /// a device shutting down delivers its ShutDown event before it goes (as the SDK's
    /// `ScheduleUrgentEventDeliverySync` at shutdown).
    package func flushReports() async {
        guard let node = try? context.requireNode() else { return }
        await flush(node)
    }

    private func flush(_ node: isolated TransportNode) {
        for subscription in subscriptions.values.sorted(by: { $0.id < $1.id })
        where subscription.isActive && !subscription.inFlight
            && (!subscription.dirty.isEmpty || subscription.eventsPending)
        {
            sendReport(subscription)
        }
        rescheduleTimer()
    }

    /// Subscriptions the server holds now (for metrics).
    package func subscriptionCount() async -> Int {
        guard let node = try? context.requireNode() else { return 0 }
        return await count(node)
    }

    /// Subscriptions the server holds now, read on its node.
    package func subscriptionCount(on node: isolated TransportNode) -> Int { subscriptions.count }

    private func count(_ node: isolated TransportNode) -> Int { subscriptions.count }

    /// True while a report waits for its subscriber's StatusResponse.
    package func reportsInFlight() async -> Bool {
        guard let node = try? context.requireNode() else { return false }
        return await inFlight(node)
    }

    private func inFlight(_ node: isolated TransportNode) -> Bool { subscriptions.values.contains { $0.inFlight } }

    // MARK: - DataModelObserver

    package func attributesChanged(_ changes: [AttributeChange]) {
        guard !subscriptions.isEmpty else { return }
        for subscription in subscriptions.values {
            for change in changes {
                if let attribute = change.attribute {
                    let path = ConcreteAttributePath(
                        endpoint: change.endpoint, cluster: change.cluster, attribute: attribute)
                    if subscription.matches(path) { subscription.dirty.insert(path) }
                } else {
                    for info in processor.attributes(change.endpoint, change.cluster) {
                        let path = ConcreteAttributePath(
                            endpoint: change.endpoint, cluster: change.cluster, attribute: info.id)
                        if subscription.matches(path) { subscription.dirty.insert(path) }
                    }
                }
            }
        }
        rescheduleTimer()
    }

    package func eventRecorded(_ path: ConcreteEventPath) {
        for subscription in subscriptions.values where !subscription.eventPaths.isEmpty {
            subscription.eventsPending = true
            if subscription.eventPaths.contains(where: { $0.isUrgent == true && $0.matches(path) }) {
                subscription.urgentPending = true
            }
        }
        rescheduleTimer()
    }

    package func eventsRecorded() {
        for subscription in subscriptions.values where !subscription.eventPaths.isEmpty {
            subscription.eventsPending = true
        }
        rescheduleTimer()
    }

    /// Subscriptions die with their session.
    func sessionClosed(_ session: SessionID) {
        for (id, subscription) in subscriptions where subscription.session == session {
            log.debug("subscription \(id) ended with its session")
            subscriptions[id] = nil
        }
        rescheduleTimer()
    }

    /// The subscriptions this server holds.
    package func subscriptionSummaries() async -> [SubscriptionSummary] {
        guard let node = try? context.requireNode() else { return [] }
        return await summaries(node)
    }

    private func summaries(_ node: isolated TransportNode) -> [SubscriptionSummary] {
        subscriptions.values.sorted { $0.id < $1.id }.map {
            SubscriptionSummary(
                id: $0.id, session: $0.session, subject: $0.subject,
                minIntervalFloor: $0.minIntervalFloor, maxInterval: $0.maxInterval, isActive: $0.isActive)
        }
    }
}
