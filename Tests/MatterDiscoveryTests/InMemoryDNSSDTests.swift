import MatterCore
import MatterTestSupport
import Testing

@testable import MatterDiscovery

@Suite("In-memory DNS-SD double")
struct InMemoryDNSSDTests {
    let network = InMemoryDNSSDNetwork()
    let device: InMemoryDNSSD
    let controller: InMemoryDNSSD

    init() throws {
        device = network.makeHost(
            hostName: "dev.local",
            addresses: [
                try #require(DNSSDAddress("fe80::1", interfaceIndex: 2)), try #require(DNSSDAddress("10.0.0.2")),
            ])
        controller = network.makeHost(hostName: "ctl.local", addresses: [])
    }

    @Test func publishedNodesAreFoundWithEachFilter() async throws {
        _ = try await device.publish(CommissionableAdvertisementTests.light)
        _ = try await device.publish(FilterTests.other)
        let light = CommissionableAdvertisementTests.light.instanceName
        let other = FilterTests.other.instanceName
        let cases: [(CommissionableFilter, [String])] = [
            (.any, [light, other]),
            (.longDiscriminator(3840), [light]), (.longDiscriminator(1234), [other]), (.longDiscriminator(1), []),
            (.shortDiscriminator(15), [light]), (.shortDiscriminator(4), [other]),
            (.vendor(VendorID(65521)), [light]), (.deviceType(DeviceTypeID(266)), [other]),
            (.commissioningMode, [light]), (.instanceName(other.lowercased()), [other]),
        ]
        for (filter, expected) in cases {
            let nodes = try await controller.discoverCommissionable(filter, timeout: .zero, limit: nil)
            #expect(nodes.map(\.instanceName) == expected, "\(filter)")
        }
        let node = try #require(
            try await controller.discoverCommissionable(.longDiscriminator(3840), timeout: .zero).first)
        #expect(node.hostName == "dev.local")
        #expect(node.port == 5540)
        #expect(node.addresses.map(\.description) == ["fe80::1%2", "10.0.0.2"])
        #expect(node.advertisement == CommissionableAdvertisementTests.light)
        #expect(node.sessionParameters == .standard)
    }

    @Test func operationalResolve() async throws {
        _ = try await device.publish(OperationalAdvertisementTests.node)
        let node = try await controller.resolveOperational(
            compressedFabricID: DigestVector.compressedFabricID, nodeID: NodeID(DigestVector.nodeID), timeout: .zero)
        #expect(node.instanceName == DigestVector.instance)
        #expect(node.advertisement == OperationalAdvertisementTests.node)
        let fabric = try await controller.discoverOperational(
            .compressedFabricID(DigestVector.compressedFabricID), timeout: .zero, limit: nil)
        #expect(fabric.count == 1)
        await #expect(throws: DiscoveryError.self) {
            try await controller.resolveOperational(
                compressedFabricID: DigestVector.compressedFabricID, nodeID: NodeID(1), timeout: .zero)
        }
    }

    @Test func updateAndWithdraw() async throws {
        var ad = CommissionableAdvertisementTests.light
        let id = try await device.publish(ad)
        #expect(try await device.waitUntilEstablished(id, timeout: .zero) == ad.instanceName)
        ad.commissioningMode = .notOpen
        try await device.update(id, to: ad)
        #expect(try await controller.discoverCommissionable(.commissioningMode, timeout: .zero).isEmpty)
        let updated = try await controller.discoverCommissionable(.instanceName(ad.instanceName), timeout: .zero)
        #expect(updated.first?.advertisement?.commissioningMode == .notOpen)
        await device.withdraw(id)
        #expect(try await controller.discoverCommissionable(.any, timeout: .zero).isEmpty)
        #expect(await device.instanceName(of: id) == nil)
        await #expect(throws: DiscoveryError.unknownPublication) { try await device.update(id, to: ad) }
        await #expect(throws: DiscoveryError.unknownPublication) {
            _ = try await device.waitUntilEstablished(id, timeout: .zero)
        }
    }

    @Test func collisionsRenameLikeAvahi() async throws {
        let first = try await device.publish(CommissionableAdvertisementTests.light)
        let second = try await controller.publish(CommissionableAdvertisementTests.light)
        let renamed = try #require(await controller.instanceName(of: second))
        #expect(await device.instanceName(of: first) == CommissionableAdvertisementTests.light.instanceName)
        #expect(renamed != CommissionableAdvertisementTests.light.instanceName)
        #expect(MatterInstanceName.isRandomHex(renamed))

        let record = DNSSDServiceRecord(serviceType: "_http._tcp", instanceName: "Desk lamp", port: 80)
        _ = try await device.publish(record)
        let b = try await controller.publish(record)
        let c = try await controller.publish(record)
        #expect(await controller.instanceName(of: b) == "Desk lamp #2")
        #expect(await controller.instanceName(of: c) == "Desk lamp #3")
        #expect(try await controller.browse(DNSSDQuery(serviceType: "_http._tcp"), timeout: .zero).count == 3)
    }

    @Test func limitReturnsAsSoonAsEnoughAreFound() async throws {
        _ = try await device.publish(CommissionableAdvertisementTests.light)
        _ = try await device.publish(FilterTests.other)
        // A one-hour timeout: the call can only return because the limit was reached.
        let nodes = try await controller.discoverCommissionable(.any, timeout: .seconds(3600), limit: 1)
        #expect(nodes.count == 1)
    }

    @Test func aBrowseWaitsForALaterPublication() async throws {
        let browse = Task { [controller] in
            try await controller.discoverCommissionable(.longDiscriminator(3840), timeout: .seconds(3600), limit: 1)
        }
        try await waitUntilABrowseIsParked()
        _ = try await device.publish(FilterTests.other)  // does not match: the browse keeps waiting
        try await waitUntilABrowseIsParked()
        _ = try await device.publish(CommissionableAdvertisementTests.light)
        let nodes = try await browse.value
        #expect(nodes.map(\.instanceName) == [CommissionableAdvertisementTests.light.instanceName])
    }

    @Test func cancellingABrowseThrowsCancelled() async throws {
        let browse = Task { [controller] in
            try await controller.discoverCommissionable(.any, timeout: .seconds(3600), limit: 1)
        }
        try await waitUntilABrowseIsParked()
        browse.cancel()
        await #expect(throws: DiscoveryError.cancelled) { try await browse.value }
        #expect(network.parkedBrowseCount == 0)
    }

    /// Yields until a browse waits on the network (bounded, so a broken double fails instead of hanging).
    func waitUntilABrowseIsParked() async throws {
        for _ in 0..<1_000_000 where network.parkedBrowseCount == 0 { await Task.yield() }
        try #require(network.parkedBrowseCount == 1)
    }

    @Test func daemonUnavailable() async throws {
        let id = try await device.publish(CommissionableAdvertisementTests.light)
        network.setDaemonAvailable(false)
        await #expect(throws: DiscoveryError.self) { try await controller.discoverCommissionable(.any, timeout: .zero) }
        await #expect(throws: DiscoveryError.self) { try await device.publish(FilterTests.other) }
        network.setDaemonAvailable(true)
        #expect(try await controller.discoverCommissionable(.any, timeout: .zero).count == 1)
        #expect(await device.instanceName(of: id) != nil)
        device.stop()
        #expect(network.services.isEmpty)
    }
}
