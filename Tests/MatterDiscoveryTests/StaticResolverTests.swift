import MatterCore
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Direct addresses and the static resolver")
struct StaticResolverTests {
    @Test func parsesAddressForms() throws {
        let v4 = try DirectAddress(parsing: "10.0.0.5:5541")
        #expect(v4.addresses.map(\.address) == ["10.0.0.5"])
        #expect(v4.addresses.first?.family == .ipv4)
        #expect(v4.port == 5541)

        let v6 = try DirectAddress(parsing: "[FE80:0:0::1%3]:5540")
        let address = try #require(v6.addresses.first)
        #expect(address.address == "fe80::1")
        #expect(address.interfaceIndex == 3)
        #expect(address.isLinkLocal)
        #expect(address.scopeID == 3)
        #expect(address.description == "fe80::1%3")
        #expect(address.hostPort(5540) == "[fe80::1%3]:5540")

        #expect(try DirectAddress(parsing: "[::1]:7000").addresses.map(\.description) == ["::1"])
        #expect(try DirectAddress(parsing: "::1").port == 5540)
        #expect(try DirectAddress(parsing: " 10.0.0.5 ").port == 5540)
        #expect(try DirectAddress(parsing: "[2001:db8::1]").addresses.first?.isLinkLocal == false)
        let local = try DirectAddress(parsing: "localhost:6000")
        #expect(local.addresses.map(\.address) == ["::1", "127.0.0.1"])
        #expect(local.description == "[::1]:6000, 127.0.0.1:6000")
        #expect(try DirectAddress(parsing: "[fe80::1%lo]:1").addresses.first?.interfaceIndex != 0)
    }

    @Test(arguments: [
        "", "10.0.0.5:0", "10.0.0.5:70000", "10.0.0.5:x", "[::1", "[::1]5540", "host.example:5540", "10.0.0.1%1",
        "300.1.1.1:5540", "[fe80::1%no-such-if]:1",
    ])
    func rejectsBadAddresses(_ text: String) {
        #expect(throws: DiscoveryError.self) { try DirectAddress(parsing: text) }
    }

    @Test func addressBasics() throws {
        #expect(DNSSDAddress("not an address") == nil)
        let v4 = try #require(DNSSDAddress("10.213.0.1", interfaceIndex: 4))
        #expect(v4.scopeID == 0)
        #expect(v4.description == "10.213.0.1")
        #expect(v4.hostPort(5540) == "10.213.0.1:5540")
        #expect(try #require(DNSSDAddress("febf::1", interfaceIndex: 1)).isLinkLocal)
        #expect(try #require(DNSSDAddress("fec0::1", interfaceIndex: 1)).isLinkLocal == false)
    }

    @Test func answersEveryDiscoveryWithTheGivenAddresses() async throws {
        let resolver = try StaticResolver(parsing: ["10.0.0.5:5541", "[fe80::1%2]:5540"])
        let nodes = try await resolver.discoverCommissionable(.longDiscriminator(3840), timeout: .zero, limit: nil)
        #expect(nodes.map(\.port) == [5541, 5540])
        #expect(nodes.first?.advertisement == nil)
        #expect(nodes.first?.addresses.map(\.description) == ["10.0.0.5"])
        #expect(nodes.first?.sessionParameters == MRPAdvertisement())
        #expect(try await resolver.discoverCommissionable(.any, timeout: .zero, limit: 1).count == 1)

        let op = try await resolver.resolveOperational(
            compressedFabricID: DigestVector.compressedFabricID, nodeID: NodeID(DigestVector.nodeID), timeout: .zero)
        #expect(op.instanceName == DigestVector.instance)
        #expect(op.addresses.map(\.description) == ["10.0.0.5"])
        #expect(op.port == 5541)
        await #expect(throws: DiscoveryError.self) {
            try await StaticResolver([]).resolveOperational(compressedFabricID: 1, nodeID: NodeID(1), timeout: .zero)
        }
    }
}
