import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Through the interaction server and client")
struct InteractionTests {
    func numbers(_ value: TLVValue?) -> [UInt64] { (value?.members ?? []).compactMap(\.uint) }

    @Test func wildcardReadOfAWholeDimmableLight() async throws {
        let h = try await Harness.make(.dimmableLight)
        let result = try await h.read([AttributePathIB()])
        #expect(result.attributes.allSatisfy { $0.status == nil })
        var byCluster: [ConcreteClusterKey: Set<UInt64>] = [:]
        for report in result.attributes {
            byCluster[ConcreteClusterKey(report.path), default: []].insert(UInt64(report.path.attribute.rawValue))
        }
        #expect(
            byCluster.keys.sorted() == [
                ConcreteClusterKey(0, .descriptor), ConcreteClusterKey(0, .basicInformation),
                ConcreteClusterKey(1, .identify), ConcreteClusterKey(1, .groups), ConcreteClusterKey(1, .onOff),
                ConcreteClusterKey(1, .levelControl), ConcreteClusterKey(1, .descriptor),
                ConcreteClusterKey(1, .scenesManagement),
            ])
        // Each AttributeList names exactly the attributes the wildcard read returned for its cluster.
        for (key, reported) in byCluster {
            let path = ConcreteAttributePath(endpoint: key.endpoint, cluster: key.cluster, attribute: .attributeList)
            let listed = Set(numbers(result.report(for: path)?.value))
            #expect(listed == reported, "\(key)")
            #expect(listed.isSuperset(of: [0xFFF8, 0xFFF9, 0xFFFB, 0xFFFC, 0xFFFD]), "\(key)")
        }
        let value = { (endpoint: UInt16, cluster: ClusterID, attribute: AttributeID) in
            result.report(
                for: ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute))?
                .value
        }
        #expect(value(0, .basicInformation, .BasicInformation.productID) == .unsigned(0x8002))
        #expect(value(0, .basicInformation, .BasicInformation.vendorID) == .unsigned(0xFFF1))
        #expect(numbers(value(0, .descriptor, .Descriptor.partsList)) == [1])
        #expect(numbers(value(1, .descriptor, .Descriptor.serverList)) == [3, 4, 6, 8, 0x1D, 0x62])
        #expect(value(1, .onOff, .OnOff.onOff) == .bool(false))
        #expect(value(1, .levelControl, .LevelControl.currentLevel) == .unsigned(254))
        #expect(value(1, .levelControl, .featureMap) == .unsigned(3))
        #expect(numbers(value(1, .onOff, .acceptedCommandList)) == [0, 1, 2, 0x40, 0x41, 0x42])
        #expect(numbers(value(1, .onOff, .generatedCommandList)) == [])
        #expect(numbers(value(1, .groups, .generatedCommandList)) == [0, 1, 2, 3])
        #expect(numbers(value(1, .levelControl, .acceptedCommandList)) == [0, 1, 2, 3, 4, 5, 6, 7])
        // Data versions are the data model's.
        let onOffVersion = await h.onDevice { $0.dataVersion(endpoint: EndpointID(1), cluster: .onOff) }
        #expect(
            result.report(
                for: ConcreteAttributePath(endpoint: EndpointID(1), cluster: .onOff, attribute: .OnOff.onOff))?
                .dataVersion == onOffVersion)
        await h.stop()
    }

    @Test func aSubscriptionReportsLevelChangesAtASaneRate() async throws {
        let h = try await Harness.make(.dimmableLight)
        let path = ConcreteAttributePath(
            endpoint: EndpointID(1), cluster: .levelControl, attribute: .LevelControl.currentLevel)
        let collector = ReportCollector()
        let subscription = try await h.client.subscribe(
            SubscribeRequestMessage(
                minIntervalFloor: 0, maxIntervalCeiling: 60, attributeRequests: [AttributePathIB(path)]),
            session: h.controllerSession, onReport: collector.onReport, onEnded: { _ in })
        #expect(subscription.priming.report(for: path)?.value == .unsigned(254))
        await h.settle()

        #expect(
            try await h.invoke(
                1, .levelControl, .LevelControl.moveToLevelWithOnOff, [0: .unsigned(100), 1: .unsigned(0)])
                == .status(.success))
        await h.tick(by: 1)
        #expect(collector.all.last?.result.report(for: path)?.value == .unsigned(100))
        #expect(await h.onDevice { $0.cluster(OnOffServer.self, on: EndpointID(1))?.isOn } == true)

        // A 3-second transition: 30 internal steps, a handful of reports, the last one the target.
        let before = collector.all.count
        #expect(
            try await h.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(200), 1: .unsigned(30)])
                == .status(.success))
        for _ in 0..<30 { await h.tick(by: 100) }
        let levels = collector.all.dropFirst(before).compactMap {
            $0.result.report(for: path)?.value.flatMap { TLVElement($0).uint }
        }
        #expect(levels.last == 200)
        #expect(levels.count >= 3 && levels.count <= 5, "\(levels)")
        #expect(levels.contains { $0 > 100 && $0 < 200 }, "\(levels)")
        #expect(levels == levels.sorted())
        // A read in the middle of a transition sees the intermediate level.
        _ = try await h.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(100), 1: .unsigned(10)])
        await h.tick(by: 500)
        #expect(try await h.read(1, .levelControl, .LevelControl.currentLevel)?.value == .unsigned(150))
        #expect(try await h.read(1, .levelControl, .LevelControl.remainingTime)?.value == .unsigned(5))
        await h.stop()
    }

    @Test func wrongCodeEntryLimitWriteFromTheSpecDigest() async throws {
        // clusters.md §15: AttributeDataIB for EP1/0x0101/0x0030 with Data = u8 5.
        let item = "15 3701 240201 25030101 240430 18 2402 05 18"
        let request = { (ib: String) in hex("15 2800 2801 3602 " + ib + " 18 24ff0c 18") }
        let h = try await Harness.make(.doorLock)
        let ok = try WriteResponseMessage(decoding: try await h.raw(.writeRequest, request(item)).payload)
        #expect(ok.writeResponses.map(\.status) == [.success])
        #expect(
            ok.writeResponses.first?.path.concrete
                == ConcreteAttributePath(
                    endpoint: EndpointID(1), cluster: .doorLock, attribute: .DoorLock.wrongCodeEntryLimit))
        #expect(try await h.read(1, .doorLock, .DoorLock.wrongCodeEntryLimit)?.value == .unsigned(5))
        let zero = try WriteResponseMessage(
            decoding: try await h.raw(.writeRequest, request("15 3701 240201 25030101 240430 18 2402 00 18")).payload)
        #expect(zero.writeResponses.map(\.status) == [StatusIB(.constraintError)])
        let big = try WriteResponseMessage(
            decoding: try await h.raw(.writeRequest, request("15 3701 240201 25030101 240430 18 2502 0001 18")).payload)
        #expect(big.writeResponses.map(\.status) == [StatusIB(.constraintError)])
        await h.stop()

        // An Operate subject may read it but not write it.
        let operate = try await Harness.make(.doorLock, privilege: .operate)
        let denied = try WriteResponseMessage(decoding: try await operate.raw(.writeRequest, request(item)).payload)
        #expect(denied.writeResponses.map(\.status) == [StatusIB(.unsupportedAccess)])
        #expect(try await operate.read(1, .doorLock, .DoorLock.wrongCodeEntryLimit)?.value == .unsigned(5))
        await operate.stop()
    }

    @Test func lockAndUnlockNeedATimedInvoke() async throws {
        let h = try await Harness.make(.doorLock, privilege: .operate)
        #expect(try await h.invoke(1, .doorLock, .DoorLock.unlockDoor) == .status(StatusIB(.needsTimedInteraction)))
        #expect(try await h.read(1, .doorLock, .DoorLock.lockState)?.value == .unsigned(1))
        #expect(try await h.invoke(1, .doorLock, .DoorLock.unlockDoor, timed: true) == .status(.success))
        #expect(try await h.read(1, .doorLock, .DoorLock.lockState)?.value == .unsigned(2))
        // The LockOperation event is readable.
        let events = try await h.client.read(
            ReadRequestMessage(eventRequests: [EventPathIB(endpoint: EndpointID(1), cluster: .doorLock)]),
            session: h.controllerSession
        ).events
        guard case .data(let event)? = events.last else {
            Issue.record("no LockOperation event: \(events)")
            return await h.stop()
        }
        #expect(event.path.event == .DoorLock.lockOperation)
        #expect(event.data?.members?.first == TLVElement(tag: .context(0), .unsigned(1)))
        // OperatingMode needs Manage.
        #expect(try await h.write(1, .doorLock, .DoorLock.operatingMode, .unsigned(3)) == StatusIB(.unsupportedAccess))
        await h.stop()
    }

    @Test func accessIsCheckedAgainstTheACL() async throws {
        let view = try await Harness.make(.dimmableLight, privilege: .view)
        #expect(try await view.invoke(1, .onOff, .OnOff.toggle) == .status(StatusIB(.unsupportedAccess)))
        #expect(
            try await view.write(0, .basicInformation, .BasicInformation.nodeLabel, .utf8("x"))
                == StatusIB(.unsupportedAccess))
        #expect(try await view.read(1, .onOff, .OnOff.onOff)?.value == .bool(false))
        #expect(try await view.read([AttributePathIB(endpoint: EndpointID(1))]).attributes.count > 30)
        await view.stop()

        let nobody = try await Harness.make(.dimmableLight, privilege: nil)
        #expect(try await nobody.read(1, .onOff, .OnOff.onOff)?.status == StatusIB(.unsupportedAccess))
        #expect(try await nobody.read([AttributePathIB()]).attributes.isEmpty)
        await nobody.stop()
    }

    @Test func badValuesGetTheirStatuses() async throws {
        let h = try await Harness.make(.dimmableLight)
        #expect(try await h.write(1, .onOff, .OnOff.onTime, .bool(true)) == StatusIB(.invalidDataType))
        #expect(try await h.write(1, .onOff, .OnOff.startUpOnOff, .unsigned(7)) == StatusIB(.constraintError))
        #expect(try await h.write(1, .levelControl, .LevelControl.onLevel, .null) == .success)
        #expect(
            try await h.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(255), 1: .unsigned(0)])
                == .status(StatusIB(.constraintError)))
        #expect(
            try await h.invoke(1, .levelControl, .LevelControl.moveToLevel, [1: .unsigned(0)])
                == .status(StatusIB(.invalidCommand)))
        #expect(try await h.invoke(1, .onOff, CommandID(0x77)) == .status(StatusIB(.unsupportedCommand)))
        let added = try await h.invoke(1, .groups, .Groups.addGroup, [0: .unsigned(0x10), 1: .utf8("Desk")])
        #expect(
            added
                == .response(
                    command: .Groups.addGroupResponse,
                    fields: .structure([
                        TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .unsigned(0x10)),
                    ])))
        await h.stop()
    }
}

/// An endpoint and cluster, ordered by endpoint, then cluster.
struct ConcreteClusterKey: Hashable, Comparable, CustomStringConvertible {
    let endpoint: EndpointID
    let cluster: ClusterID

    init(_ endpoint: UInt16, _ cluster: ClusterID) {
        self.endpoint = EndpointID(endpoint)
        self.cluster = cluster
    }

    init(_ path: ConcreteAttributePath) {
        self.endpoint = path.endpoint
        self.cluster = path.cluster
    }

    static func < (a: Self, b: Self) -> Bool { (a.endpoint, a.cluster) < (b.endpoint, b.cluster) }

    var description: String { "\(endpoint.rawValue)/\(cluster)" }
}
