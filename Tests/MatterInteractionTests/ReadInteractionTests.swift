import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Reads: wildcard expansion, statuses, filters, chunking")
struct ReadInteractionTests {
    @Test func wildcardReadOfTheWholeNode() async throws {
        let h = await Harness.make()
        let result = try await h.client.read([AttributePathIB()], session: h.controllerSession)
        // Every attribute of every cluster, plus the three synthesized global lists per cluster.
        let expected = await h.onDevice { model in
            model.endpoints.flatMap { endpoint in
                model.clusters(endpoint: endpoint).flatMap { cluster in
                    (model.attributes(endpoint: endpoint, cluster: cluster).map(\.id)
                        + [.generatedCommandList, .acceptedCommandList, .attributeList])
                        .map { ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: $0) }
                }
            }
        }
        #expect(result.attributes.map(\.path) == expected)
        #expect(result.attributes.allSatisfy { $0.value != nil })
        let onOff = ConcreteAttributePath(1, .onOff, .attributeList)
        #expect(
            result.report(for: onOff)?.value
                == .array(
                    [0, 0x4001, 0xFFFC, 0xFFFD, 0xFFF8, 0xFFF9, 0xFFFB].map {
                        TLVElement(.unsigned($0))
                    }))
        #expect(
            result.report(for: ConcreteAttributePath(1, .onOff, .acceptedCommandList))?.value
                == .array([0, 1, 2].map { TLVElement(.unsigned($0)) }))
        #expect(
            result.report(for: ConcreteAttributePath(1, Fake.testCluster, .generatedCommandList))?.value
                == .array([TLVElement(.unsigned(2))]))
        #expect(result.report(for: ConcreteAttributePath(1, .onOff, .OnOff.onOff))?.dataVersion == 3_169_247_736)
        // The 1.6 kB list did not fit one message: it came as replace-all plus appends, reassembled.
        let bigList = ConcreteAttributePath(1, Fake.testCluster, Fake.bigListAttribute)
        let stored = await h.onDevice { $0.values[bigList] }
        #expect(result.report(for: bigList)?.value == stored)
        await h.stop()
    }

    @Test func smallChunkBudgetGivesTheSameResult() async throws {
        var small = InteractionServer.Configuration()
        small.maxPayloadSize = 160
        let h = await Harness.make(server: small)
        let reference = await Harness.make()
        let chunked = try await h.client.read([AttributePathIB()], session: h.controllerSession)
        let whole = try await reference.client.read([AttributePathIB()], session: reference.controllerSession)
        #expect(chunked == whole)
        // Many more datagrams than for the default budget: one ReportData per chunk plus a StatusResponse.
        #expect(h.network.log.count > reference.network.log.count + 20)
        await h.stop()
        await reference.stop()
    }

    @Test func concretePathsThatFailGetStatusesWildcardsSkipSilently() async throws {
        let h = await Harness.make(privilege: .operate)
        let result = try await h.client.read(
            [
                AttributePathIB(endpoint: EndpointID(9), cluster: .onOff, attribute: .OnOff.onOff),
                AttributePathIB(endpoint: EndpointID(1), cluster: .levelControl, attribute: .LevelControl.currentLevel),
                AttributePathIB(endpoint: EndpointID(1), cluster: .onOff, attribute: AttributeID(0x1234)),
                AttributePathIB(
                    endpoint: EndpointID(1), cluster: Fake.testCluster, attribute: Fake.restrictedAttribute),
                AttributePathIB(cluster: .networkCommissioning),  // no such cluster anywhere: nothing
                AttributePathIB(endpoint: EndpointID(1), cluster: Fake.testCluster),  // restricted one skipped
            ], session: h.controllerSession)
        let statuses = result.attributes.compactMap { report in report.status.map { (report.path, $0.status) } }
        #expect(
            statuses.map(\.1) == [.unsupportedEndpoint, .unsupportedCluster, .unsupportedAttribute, .unsupportedAccess])
        let testClusterPaths = result.attributes.filter { $0.path.cluster == Fake.testCluster && $0.value != nil }
            .map(\.path.attribute)
        #expect(!testClusterPaths.contains(Fake.restrictedAttribute))
        #expect(testClusterPaths.contains(Fake.listAttribute))
        await h.stop()
    }

    @Test func dataVersionFilterOmitsUnchangedClusters() async throws {
        let h = await Harness.make()
        let onOff = AttributePathIB(endpoint: EndpointID(1), cluster: .onOff)
        let current = DataVersionFilterIB(endpoint: EndpointID(1), cluster: .onOff, dataVersion: 3_169_247_736)
        let filtered = try await h.client.read(
            ReadRequestMessage(attributeRequests: [onOff], dataVersionFilters: [current]),
            session: h.controllerSession)
        #expect(filtered.isEmpty)
        let stale = DataVersionFilterIB(endpoint: EndpointID(1), cluster: .onOff, dataVersion: 1)
        let full = try await h.client.read(
            ReadRequestMessage(attributeRequests: [onOff], dataVersionFilters: [stale]),
            session: h.controllerSession)
        #expect(full.attributes.count == 7)
        await h.stop()
    }

    @Test func fabricFilteredReadShowsOnlyTheAccessingFabric() async throws {
        let h = await Harness.make()
        let path = AttributePathIB(ConcreteAttributePath(1, Fake.testCluster, Fake.fabricListAttribute))
        let filtered = try await h.client.read([path], session: h.controllerSession, isFabricFiltered: true)
        #expect(filtered.attributes.first?.value == .array([]))
        let unfiltered = try await h.client.read([path], session: h.controllerSession, isFabricFiltered: false)
        #expect(unfiltered.attributes.first?.value.flatMap { $0.members?.count } == 1)
        await h.stop()
    }

    @Test func invalidPathsFailTheWholeRead() async throws {
        let h = await Harness.make()
        // Cluster wildcard with a non-global attribute.
        await #expect(throws: InteractionError.status(.invalidAction)) {
            try await h.client.read(
                [AttributePathIB(endpoint: EndpointID(1), attribute: .OnOff.onOff)],
                session: h.controllerSession)
        }
        // A list index in a read path.
        await #expect(throws: InteractionError.status(.invalidAction)) {
            try await h.client.read(
                [
                    AttributePathIB(
                        endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff,
                        listIndex: .index(0))
                ], session: h.controllerSession)
        }
        // Cluster wildcard with a global attribute is fine: FeatureMap of every cluster of EP1.
        let features = try await h.client.read(
            [AttributePathIB(endpoint: EndpointID(1), attribute: .featureMap)],
            session: h.controllerSession)
        #expect(features.attributes.map(\.path.cluster) == [.onOff, Fake.testCluster])
        await h.stop()
    }

    @Test func eventsAreReadWithTheirFilter() async throws {
        let h = await Harness.make()
        await h.onDevice { model in
            for number in 1...3 {
                model.record(
                    EventRecord(
                        path: ConcreteEventPath(
                            endpoint: EndpointID(2), cluster: .doorLock, event: .DoorLock.lockOperation),
                        number: UInt64(number), priority: 2, timestamp: .system(UInt64(number) * 1000),
                        data: .structure([TLVElement(tag: .context(0), .unsigned(UInt64(number)))])))
            }
        }
        let request = ReadRequestMessage(
            eventRequests: [EventPathIB(endpoint: EndpointID(2), cluster: .doorLock)],
            eventFilters: [EventFilterIB(eventMin: 2)])
        let result = try await h.client.read(request, session: h.controllerSession)
        let numbers = result.events.compactMap { report -> UInt64? in
            if case .data(let data) = report { data.eventNumber } else { nil }
        }
        #expect(numbers == [2, 3])
        let unknown = try await h.client.read(
            ReadRequestMessage(eventRequests: [
                EventPathIB(endpoint: EndpointID(2), cluster: .doorLock, event: EventID(0x99))
            ]), session: h.controllerSession)
        #expect(
            unknown.events == [
                .status(
                    EventStatusIB(
                        path: EventPathIB(endpoint: EndpointID(2), cluster: .doorLock, event: EventID(0x99)),
                        status: StatusIB(.unsupportedEvent)))
            ])
        await h.stop()
    }
}
