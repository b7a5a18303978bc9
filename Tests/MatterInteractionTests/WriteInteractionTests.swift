import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Writes: per-path checks, lists, fabric scoping, timing")
struct WriteInteractionTests {
    @Test func perPathStatuses() async throws {
        let h = await Harness.make(privilege: .operate)
        let results = try await h.client.write(
            [
                WriteItem(path: ConcreteAttributePath(1, .onOff, .OnOff.onOff), value: .bool(true)),
                WriteItem(path: ConcreteAttributePath(1, .onOff, .OnOff.onTime), value: .unsigned(50)),
                WriteItem(
                    path: ConcreteAttributePath(0, .basicInformation, .BasicInformation.nodeLabel), value: .utf8("x")),
                WriteItem(path: ConcreteAttributePath(7, .onOff, .OnOff.onTime), value: .unsigned(1)),
                WriteItem(path: ConcreteAttributePath(1, .doorLock, .DoorLock.lockState), value: .unsigned(1)),
                WriteItem(path: ConcreteAttributePath(1, .onOff, AttributeID(0x77)), value: .unsigned(1)),
                WriteItem(path: ConcreteAttributePath(1, .onOff, .OnOff.onTime), value: .unsigned(2), dataVersion: 1),
            ], session: h.controllerSession)
        #expect(
            results.map(\.status.status) == [
                .unsupportedWrite, .success, .unsupportedAccess, .unsupportedEndpoint, .unsupportedCluster,
                .unsupportedAttribute, .dataVersionMismatch,
            ])
        let onTime = await h.onDevice { $0.values[ConcreteAttributePath(1, .onOff, .OnOff.onTime)] }
        #expect(onTime == .unsigned(50))
        await h.stop()
    }

    @Test func conditionalWriteWithTheCurrentVersionSucceeds() async throws {
        let h = await Harness.make()
        let path = ConcreteAttributePath(1, .onOff, .OnOff.onTime)
        let version = await h.onDevice { $0.dataVersion(endpoint: EndpointID(1), cluster: .onOff) }
        let results = try await h.client.write(
            [WriteItem(path: path, value: .unsigned(9), dataVersion: version)],
            session: h.controllerSession)
        #expect(results.first?.status == .success)
        await h.stop()
    }

    @Test func bigListIsWrittenAsReplaceAllPlusAppendsInChunks() async throws {
        var small = InteractionClient.Configuration()
        small.maxPayloadSize = 120
        let h = await Harness.make(client: small)
        let path = ConcreteAttributePath(1, Fake.testCluster, Fake.listAttribute)
        let list = TLVValue.array((0..<30).map { TLVElement(.unsigned(UInt64(1000 + $0))) })
        let results = try await h.client.write([WriteItem(path: path, value: list)], session: h.controllerSession)
        #expect(results == [WriteResult(path: path, status: .success)])
        let (stored, finished) = await h.onDevice { ($0.values[path], $0.finishedListWrites) }
        #expect(stored == list)
        #expect(finished == [path])
        await h.stop()
    }

    @Test func rawReplaceThenAppendInOneRequest() async throws {
        let h = await Harness.make()
        let path = ConcreteAttributePath(1, Fake.testCluster, Fake.listAttribute)
        let request = WriteRequestMessage(writeRequests: [
            AttributeDataIB(dataVersion: nil, path: AttributePathIB(path), data: .array([TLVElement(.unsigned(1))])),
            AttributeDataIB(dataVersion: nil, path: AttributePathIB(path, listIndex: .null), data: .unsigned(2)),
            AttributeDataIB(dataVersion: nil, path: AttributePathIB(path, listIndex: .index(0)), data: .unsigned(3)),
            AttributeDataIB(
                dataVersion: nil,
                path: AttributePathIB(
                    ConcreteAttributePath(1, .onOff, .OnOff.onTime),
                    listIndex: .null), data: .unsigned(3)),
        ])
        let reply = try await h.raw(.writeRequest, request.encode())
        let response = try WriteResponseMessage(decoding: reply.payload)
        #expect(response.writeResponses.map(\.status.status) == [.success, .success, .invalidAction, .invalidAction])
        // The append's status echoes the append path (ListIndex null).
        #expect(response.writeResponses[1].path.listIndex == .null)
        #expect(await h.onDevice { $0.values[path] } == .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(2))]))
        await h.stop()
    }

    @Test func fabricScopedListWritesStampTheAccessingFabric() async throws {
        let h = await Harness.make()
        let path = ConcreteAttributePath(1, Fake.testCluster, Fake.fabricListAttribute)
        let entry = TLVValue.structure([
            TLVElement(tag: .context(1), .unsigned(5)), TLVElement(tag: .context(0xFE), .unsigned(9)),
        ])
        let results = try await h.client.write(
            [WriteItem(path: path, value: .array([TLVElement(entry)]))],
            session: h.controllerSession)
        #expect(results.first?.status == .success)
        let stored = await h.onDevice { $0.values[path] }
        let fabrics = stored?.members?.compactMap { $0[context: 0xFE]?.uint }
        // Fabric 2's entry kept; ours stamped with fabric 1 whatever the client sent.
        #expect(fabrics == [2, 1])
        await h.stop()
    }

    @Test func fabricScopedWritesNeedAFabric() async throws {
        let h = await Harness.make(kind: .pase)
        let path = ConcreteAttributePath(1, Fake.testCluster, Fake.fabricListAttribute)
        let results = try await h.client.write([WriteItem(path: path, value: .array([]))], session: h.controllerSession)
        #expect(results.first?.status.status == .unsupportedAccess)
        await h.stop()
    }

    @Test func timedWrites() async throws {
        let h = await Harness.make()
        let path = ConcreteAttributePath(1, Fake.testCluster, Fake.timedAttribute)
        let untimed = try await h.client.write(
            [WriteItem(path: path, value: .unsigned(5))], session: h.controllerSession)
        #expect(untimed.first?.status.status == .needsTimedInteraction)
        let timed = try await h.client.write(
            [WriteItem(path: path, value: .unsigned(5))], session: h.controllerSession,
            timedTimeout: 10_000)
        #expect(timed.first?.status == .success)
        let invalid = try await h.client.write(
            [WriteItem(path: path, value: .unsigned(200))],
            session: h.controllerSession, timedTimeout: 10_000)
        #expect(invalid.first?.status.status == .constraintError)
        #expect(await h.onDevice { $0.values[path] } == .unsigned(5))
        await h.stop()
    }

    @Test func wildcardWritePathsFailTheWholeWrite() async throws {
        let h = await Harness.make()
        let request = WriteRequestMessage(writeRequests: [
            AttributeDataIB(
                dataVersion: nil, path: AttributePathIB(cluster: .onOff, attribute: .OnOff.onTime),
                data: .unsigned(1))
        ])
        let reply = try await h.raw(.writeRequest, request.encode())
        #expect(reply.opcode == InteractionOpcode.statusResponse.rawValue)
        #expect(try StatusResponseMessage(decoding: reply.payload).status == .invalidAction)
        await h.stop()
    }
}
