import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Subscriptions on a manual clock")
struct SubscriptionTests {
    let onOffPath = ConcreteAttributePath(1, .onOff, .OnOff.onOff)
    let toggle = CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.toggle))

    func subscribe(
        _ h: Harness, _ collector: ReportCollector, min: UInt16 = 2, max: UInt16 = 10,
        keep: Bool = false, paths: [AttributePathIB]? = nil, events: [EventPathIB] = []
    )
        async throws -> ClientSubscription
    {
        let request = SubscribeRequestMessage(
            keepSubscriptions: keep, minIntervalFloor: min, maxIntervalCeiling: max,
            attributeRequests: paths ?? [AttributePathIB(onOffPath)],
            eventRequests: events)
        return try await h.client.subscribe(
            request, session: h.controllerSession, onReport: collector.onReport,
            onEnded: collector.onEnded)
    }

    /// Runs the server's timers and lets the report (if any) and its StatusResponse go through.
    func tick(_ h: Harness, _ clock: ManualClock, by milliseconds: UInt64) async {
        clock.advance(by: milliseconds)
        await h.server.serviceTimers()
        await h.settle()
    }

    @Test func changesAfterMinIntervalKeepAliveAtMaxEndWithSession() async throws {
        let clock = ManualClock(startingAt: 50_000)
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        let subscription = try await subscribe(h, collector)
        #expect(subscription.maxInterval == 10)
        #expect(subscription.priming.attributes.map(\.path) == [onOffPath])
        #expect(subscription.priming.report(for: onOffPath)?.value == .bool(false))
        await h.settle()

        // A change right away waits for the min interval (2 s).
        _ = try await h.client.invoke(toggle, session: h.controllerSession)
        await tick(h, clock, by: 1_999)
        #expect(collector.all.isEmpty)
        await tick(h, clock, by: 1)
        #expect(collector.all.count == 1)
        #expect(collector.all.last?.result.report(for: onOffPath)?.value == .bool(true))

        // Two changes within the min interval: one report, with the latest value, then nothing more.
        _ = try await h.client.invoke(toggle, session: h.controllerSession)
        _ = try await h.client.invoke(toggle, session: h.controllerSession)
        await tick(h, clock, by: 2_000)
        #expect(collector.all.count == 2)
        #expect(collector.all.last?.result.attributes.count == 1)
        #expect(collector.all.last?.result.report(for: onOffPath)?.value == .bool(true))
        await tick(h, clock, by: 2_000)
        #expect(collector.all.count == 2)

        // Nothing changes: an empty report when MaxInterval (10 s) is reached since the last one.
        await tick(h, clock, by: 7_999)
        #expect(collector.all.count == 2)
        await tick(h, clock, by: 1)
        #expect(collector.all.count == 3)
        #expect(collector.all.last?.result.isEmpty == true)
        #expect(collector.all.allSatisfy { $0.subscriptionID == subscription.id })

        // The session goes away on the device: the subscription with it, no more reports.
        #expect(await h.server.subscriptionSummaries().count == 1)
        await h.device.removeSecureSession(h.deviceSession)
        #expect(await h.server.subscriptionSummaries().isEmpty)
        let sent = h.network.log.count
        await tick(h, clock, by: 20_000)
        #expect(h.network.log.count == sent)
        // The client notices the silence after MaxInterval plus its allowance.
        await h.client.serviceTimers()
        #expect(collector.ended.count == 1)
        await h.stop()
    }

    @Test("a report that comes in the same read as SubscribeResponse, before the subscriber has taken it in, is kept")
    func reportRightAfterSubscribeResponse() async throws {
        let clock = ManualClock()
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        // Log indexes: 0 SubscribeRequest, 1 the priming report, 2 its StatusResponse, 3 SubscribeResponse.
        h.network.holdDeliveries(to: h.controller.port, fromIndex: 3)
        async let subscribed = subscribe(h, collector, min: 0, max: 60)
        for _ in 0..<500 where h.network.log.count < 4 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(h.network.log.count == 4, "SubscribeResponse sent")
        // The server reports a change at once (MinInterval 0); the controller is still busy, so the
        // report is read in the same turn as SubscribeResponse.
        await h.onDevice { model in model.set(ConcreteAttributePath(1, .onOff, .OnOff.onOff), .bool(true)) }
        await h.server.serviceTimers()
        for _ in 0..<500 where h.network.log.count < 5 { try await Task.sleep(for: .milliseconds(10)) }
        h.network.releaseDeliveries(to: h.controller.port)
        let subscription = try await subscribed
        await h.settle()
        #expect(collector.all.map(\.subscriptionID) == [subscription.id])
        #expect(collector.all.first?.result.report(for: onOffPath)?.value == .bool(true))
        #expect(collector.ended.isEmpty)
        #expect(await h.server.subscriptionSummaries().map(\.id) == [subscription.id])
        await h.stop()
    }

    @Test func keepSubscriptionsFalseReplacesThePeersOlderOnes() async throws {
        let clock = ManualClock()
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        _ = try await subscribe(h, collector, keep: true)
        _ = try await subscribe(h, collector, keep: true)
        #expect(await h.server.subscriptionSummaries().count == 2)
        let last = try await subscribe(h, collector, keep: false)
        #expect(await h.server.subscriptionSummaries().map(\.id) == [last.id])
        await h.stop()
    }

    @Test func cancelledSubscriptionIsRefusedAtTheNextReport() async throws {
        let clock = ManualClock()
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        let subscription = try await subscribe(h, collector, min: 0, max: 5)
        await h.client.cancel(subscription)
        #expect(collector.ended == [.subscriptionEnded("cancelled")])
        // The next report is answered INVALID_SUBSCRIPTION: the server drops it.
        await tick(h, clock, by: 5_000)
        await h.settle()
        #expect(await h.server.subscriptionSummaries().isEmpty)
        #expect(collector.all.isEmpty)
        await h.stop()
    }

    @Test func unacknowledgedReportEndsTheSubscription() async throws {
        let clock = ManualClock()
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        _ = try await subscribe(h, collector, min: 0, max: 5)
        await h.settle()
        // The controller disappears: the keep-alive is retransmitted by MRP, then given up.
        await h.controller.stop()
        await tick(h, clock, by: 5_000)
        #expect(await h.server.subscriptionSummaries().count == 1)
        for _ in 0..<10 {
            clock.advance(by: 5_000)
            await h.device.serviceTimers()
        }
        await h.settle()
        #expect(await h.server.subscriptionSummaries().isEmpty)
        await h.stop()
    }

    @Test func minIntervalAboveMaxIsRejected() async throws {
        let h = await Harness.make(clock: ManualClock())
        await #expect(throws: InteractionError.status(.invalidAction)) {
            _ = try await subscribe(h, ReportCollector(), min: 20, max: 10)
        }
        await h.stop()
    }

    @Test func chunkedPrimingAndWildcardChanges() async throws {
        let clock = ManualClock()
        var small = InteractionServer.Configuration()
        small.maxPayloadSize = 200
        let h = await Harness.make(clock: clock, server: small)
        let collector = ReportCollector()
        let subscription = try await subscribe(
            h, collector, min: 0, max: 60,
            paths: [AttributePathIB(endpoint: EndpointID(1))])
        let bigList = ConcreteAttributePath(1, Fake.testCluster, Fake.bigListAttribute)
        #expect(subscription.priming.report(for: bigList)?.value == (await h.onDevice { $0.values[bigList] }))
        #expect(subscription.priming.attributes.count == 7 + 10)
        // A write to the list shows up (only the changed attribute) after min interval 0; the list is
        // too big for one 200-byte report, so the report is chunked and reassembled.
        let listPath = ConcreteAttributePath(1, Fake.testCluster, Fake.listAttribute)
        let list = TLVValue.array((0..<30).map { TLVElement(.utf8("value number \($0)")) })
        _ = try await h.client.write([WriteItem(path: listPath, value: list)], session: h.controllerSession)
        await tick(h, clock, by: 0)
        #expect(collector.all.count == 1)
        #expect(collector.all.first?.result.attributes.map(\.path) == [listPath])
        #expect(collector.all.first?.result.report(for: listPath)?.value == list)
        await h.stop()
    }

    @Test func eventsAreReported() async throws {
        let clock = ManualClock()
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        let lockEvents = EventPathIB(endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.lockOperation)
        _ = try await subscribe(h, collector, min: 0, max: 60, paths: [], events: [lockEvents])
        await h.onDevice { model in
            model.record(
                EventRecord(
                    path: ConcreteEventPath(
                        endpoint: EndpointID(2), cluster: .doorLock,
                        event: .DoorLock.lockOperation),
                    number: 10, priority: 2, timestamp: .epoch(1_700_000_000_000), data: .structure([])))
        }
        await tick(h, clock, by: 0)
        #expect(collector.all.count == 1)
        guard case .data(let event)? = collector.all.first?.result.events.first else {
            Issue.record("no event")
            return
        }
        #expect(event.eventNumber == 10 && event.timestamp == .epoch(1_700_000_000_000))
        await h.stop()
    }

    @Test("an event on an urgent path is reported before the min interval; others wait for it")
    func urgentEventsSkipTheMinInterval() async throws {
        let clock = ManualClock(startingAt: 10_000)
        let h = await Harness.make(clock: clock)
        let collector = ReportCollector()
        let alarm = ConcreteEventPath(endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.doorLockAlarm)
        let operation = ConcreteEventPath(endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.lockOperation)
        _ = try await subscribe(
            h, collector, min: 30, max: 60, paths: [],
            events: [
                EventPathIB(operation),
                EventPathIB(
                    endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.doorLockAlarm, isUrgent: true),
            ])
        func record(_ path: ConcreteEventPath, _ number: UInt64) async {
            await h.onDevice { model in
                model.record(
                    EventRecord(
                        path: path, number: number, priority: 2, timestamp: .system(number), data: .structure([])))
            }
        }
        await record(operation, 1)
        await tick(h, clock, by: 1000)
        #expect(collector.all.isEmpty)  // not urgent: waits for the 30 s min interval
        await record(alarm, 2)
        await tick(h, clock, by: 0)
        #expect(collector.all.count == 1)
        let numbers = collector.all.first?.result.events.compactMap { report -> UInt64? in
            if case .data(let event) = report { return event.eventNumber }
            return nil
        }
        #expect(numbers == [1, 2])  // the report carries what was pending too
        await h.stop()
    }

    @Test func reportsFlowOnDispatchTimers() async throws {
        let h = await Harness.make()
        let collector = ReportCollector()
        _ = try await subscribe(h, collector, min: 0, max: 60)
        _ = try await h.client.invoke(toggle, session: h.controllerSession)
        // Delivery is asynchronous here: wait for it (bounded), without asserting on time.
        for _ in 0..<500 where collector.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(collector.all.count == 1)
        #expect(collector.all.first?.result.report(for: onOffPath)?.value == .bool(true))
        await h.stop()
    }
}
