import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Invokes: statuses, responses, batches, timed interactions")
struct InvokeInteractionTests {
    @Test func toggleAndEchoResponse() async throws {
        let h = await Harness.make()
        let toggle = try await h.client.invoke(
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.toggle)),
            session: h.controllerSession)
        #expect(toggle == .status(.success))
        #expect(await h.onDevice { $0.values[ConcreteAttributePath(1, .onOff, .OnOff.onOff)] } == .bool(true))
        let echo = try await h.client.invoke(
            CommandRequest(
                path: ConcreteCommandPath(1, Fake.testCluster, Fake.echoCommand),
                fields: .structure([TLVElement(tag: .context(0), .unsigned(42))])), session: h.controllerSession)
        #expect(
            echo
                == .response(
                    command: Fake.echoResponse, fields: .structure([TLVElement(tag: .context(0), .unsigned(42))])))
        await h.stop()
    }

    @Test func unknownElementsAccessAndFailures() async throws {
        var configuration = InteractionServer.Configuration()
        configuration.maxPathsPerInvoke = 8
        let h = await Harness.make(privilege: .operate, server: configuration)
        let results = try await h.client.invoke(
            [
                CommandRequest(path: ConcreteCommandPath(5, .onOff, .OnOff.toggle)),
                CommandRequest(path: ConcreteCommandPath(1, .levelControl, .LevelControl.moveToLevel)),
                CommandRequest(path: ConcreteCommandPath(1, .onOff, CommandID(0x33))),
                CommandRequest(path: ConcreteCommandPath(1, Fake.testCluster, Fake.failingCommand)),
                CommandRequest(path: ConcreteCommandPath(1, Fake.testCluster, Fake.echoCommand)),
            ], session: h.controllerSession)
        #expect(
            results == [
                .status(StatusIB(.unsupportedEndpoint)), .status(StatusIB(.unsupportedCluster)),
                .status(StatusIB(.unsupportedCommand)), .status(.cluster(5)), .status(StatusIB(.invalidCommand)),
            ])
        // CommandFields that are not a structure.
        let garbled = try await h.client.invoke(
            CommandRequest(
                path: ConcreteCommandPath(1, Fake.testCluster, Fake.echoCommand),
                fields: .unsigned(1)), session: h.controllerSession)
        #expect(garbled == .status(StatusIB(.invalidCommand)))
        await h.stop()
    }

    @Test func viewerCannotInvoke() async throws {
        let h = await Harness.make(privilege: .view)
        let result = try await h.client.invoke(
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.toggle)),
            session: h.controllerSession)
        #expect(result == .status(StatusIB(.unsupportedAccess)))
        #expect(await h.onDevice { $0.invoked }.isEmpty)
        await h.stop()
    }

    @Test func fabricScopedCommandNeedsAFabric() async throws {
        let h = await Harness.make(kind: .pase)
        let result = try await h.client.invoke(
            CommandRequest(path: ConcreteCommandPath(1, Fake.testCluster, Fake.failingCommand)),
            session: h.controllerSession)
        #expect(result == .status(StatusIB(.unsupportedAccess)))
        await h.stop()
    }

    @Test func batchesNeedRoomAndAreAnsweredByCommandRef() async throws {
        let h = await Harness.make()
        let batch = [
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.on)),
            CommandRequest(
                path: ConcreteCommandPath(1, Fake.testCluster, Fake.echoCommand),
                fields: .structure([TLVElement(tag: .context(0), .unsigned(7))])),
        ]
        // MaxPathsPerInvoke is 1 by default.
        await #expect(throws: InteractionError.status(.invalidAction)) {
            try await h.client.invoke(batch, session: h.controllerSession)
        }
        var configuration = InteractionServer.Configuration()
        configuration.maxPathsPerInvoke = 2
        let roomy = await Harness.make(server: configuration)
        let results = try await roomy.client.invoke(batch, session: roomy.controllerSession)
        #expect(
            results == [
                .status(.success),
                .response(
                    command: Fake.echoResponse,
                    fields: .structure([TLVElement(tag: .context(0), .unsigned(7))])),
            ])
        await h.stop()
        await roomy.stop()
    }

    @Test func chunkedInvokeResponsesAreJoined() async throws {
        var configuration = InteractionServer.Configuration()
        configuration.maxPathsPerInvoke = 16
        configuration.maxPayloadSize = 90
        let h = await Harness.make(server: configuration)
        // Paths in a batch must be distinct.
        let batch = [
            CommandRequest(
                path: ConcreteCommandPath(1, Fake.testCluster, Fake.echoCommand),
                fields: .structure([TLVElement(tag: .context(0), .unsigned(0))])),
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.on)),
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.off)),
            CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.toggle)),
            CommandRequest(path: ConcreteCommandPath(2, .doorLock, .DoorLock.lockDoor)),
        ]
        let results = try await h.client.invoke(batch, session: h.controllerSession)
        #expect(results.count == 5)
        #expect(
            results[0]
                == .response(
                    command: Fake.echoResponse, fields: .structure([TLVElement(tag: .context(0), .unsigned(0))])))
        #expect(results[4] == .status(StatusIB(.needsTimedInteraction)))
        await h.stop()
    }

    @Test func timedInvokes() async throws {
        let h = await Harness.make()
        let lock = CommandRequest(path: ConcreteCommandPath(2, .doorLock, .DoorLock.lockDoor))
        #expect(
            try await h.client.invoke(lock, session: h.controllerSession) == .status(StatusIB(.needsTimedInteraction)))
        #expect(
            try await h.client.invoke(lock, session: h.controllerSession, timedTimeout: 10_000) == .status(.success))
        let timed = CommandRequest(path: ConcreteCommandPath(1, Fake.testCluster, Fake.timedCommand))
        #expect(
            try await h.client.invoke(timed, session: h.controllerSession, timedTimeout: 10_000) == .status(.success))
        // A command that needs no timing may still be invoked in a timed interaction.
        let toggle = CommandRequest(path: ConcreteCommandPath(1, .onOff, .OnOff.toggle))
        #expect(
            try await h.client.invoke(toggle, session: h.controllerSession, timedTimeout: 10_000) == .status(.success))
        await h.stop()
    }

    @Test func timedRequestRules() async throws {
        let clock = ManualClock(startingAt: 1_000_000)
        let h = await Harness.make(clock: clock)
        let lock = InvokeRequestMessage(
            timedRequest: true,
            invokeRequests: [
                CommandDataIB(path: CommandPathIB(ConcreteCommandPath(2, .doorLock, .DoorLock.lockDoor)))
            ])
        var untimedFlag = lock
        untimedFlag.timedRequest = false
        // TimedRequest=true without a TimedRequest first.
        let mismatch = try await h.raw(.invokeRequest, lock.encode())
        #expect(try StatusResponseMessage(decoding: mismatch.payload).status == .timedRequestMismatch)
        // In time, flag set: SUCCESS.
        let ok = try await timedExchange(h, timeout: 100, then: lock.encode(), advancing: 50, clock: clock)
        #expect(
            try InvokeResponseMessage(decoding: ok.payload).invokeResponses.first
                == .status(CommandStatusIB(path: lock.invokeRequests[0].path, status: .success)))
        // Too late.
        let late = try await timedExchange(h, timeout: 100, then: lock.encode(), advancing: 101, clock: clock)
        #expect(try StatusResponseMessage(decoding: late.payload).status == .timeout)
        // Flag missing after a TimedRequest.
        let flagless = try await timedExchange(h, timeout: 100, then: untimedFlag.encode(), advancing: 0, clock: clock)
        #expect(try StatusResponseMessage(decoding: flagless.payload).status == .timedRequestMismatch)
        // A timed write may not be chunked.
        let chunked = WriteRequestMessage(
            timedRequest: true,
            writeRequests: [
                AttributeDataIB(
                    dataVersion: nil, path: AttributePathIB(ConcreteAttributePath(1, .onOff, .OnOff.onTime)),
                    data: .unsigned(1))
            ], moreChunkedMessages: true)
        let refused = try await timedExchange(
            h, timeout: 100, then: chunked.encode(), opcode: .writeRequest,
            advancing: 0, clock: clock)
        #expect(try StatusResponseMessage(decoding: refused.payload).status == .invalidAction)
        await h.stop()
    }

    /// TimedRequest, its StatusResponse, then (after moving the clock) `payload` on the same exchange.
    func timedExchange(
        _ h: Harness, timeout: UInt16, then payload: [UInt8], opcode: InteractionOpcode = .invokeRequest,
        advancing: UInt64, clock: ManualClock
    ) async throws -> ReceivedMessage {
        try await rawExchange(h.controller, session: h.controllerSession) { _, exchange in
            let status = try await exchange.request(
                opcode: InteractionOpcode.timedRequest.rawValue,
                payload: TimedRequestMessage(timeout: timeout).encode(), timeout: 5_000)
            #expect(try StatusResponseMessage(decoding: status.payload).status == .success)
            clock.advance(by: advancing)
            return try await exchange.request(opcode: opcode.rawValue, payload: payload, timeout: 5_000)
        }
    }
}
