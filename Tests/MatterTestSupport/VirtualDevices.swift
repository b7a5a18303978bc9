import Dispatch
package import MatterController
package import MatterCore
package import MatterDevice
package import MatterDiscovery
package import MatterTransport

/// The project's real virtual devices (`MatterDevice`) on loopback UDP, for end-to-end tests.
package enum VirtualDevices {
    /// Short MRP intervals for loopback tests (peers notice a lost message in tens of milliseconds).
    package static let fastMRP = MRPParameters(idleInterval: 60, activeInterval: 60, activeThreshold: 4000)

    /// Starts a device of `type` (a `fixtures/pki` device) with its state in `directory/<name>.sqlite`;
    /// advertised on `dnssd` when one is given.
    package static func start(
        _ type: String = "dimmable-light", in directory: TemporaryDirectory, name: String,
        passcode: UInt32 = 20_202_021, discriminator: UInt16 = 3840, vendorID: VendorID? = nil,
        port: UInt16 = 0, mrp: MRPParameters? = nil, dnssd: InMemoryDNSSD? = nil,
        bridged: [(type: String, count: Int)] = [], timeScale: Double = 1, maxPathsPerInvoke: UInt16 = 1
    ) async throws -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(
            deviceType: type, storagePath: directory.file("\(name).sqlite"), pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = port
        configuration.passcode = passcode
        configuration.discriminator = discriminator
        configuration.vendorID = vendorID
        configuration.storageNamespace = name
        configuration.advertise = dnssd != nil
        if let mrp { configuration.mrp = mrp }
        configuration.bridged = bridged
        configuration.timeScale = timeScale
        configuration.maxPathsPerInvoke = maxPathsPerInvoke
        return try await VirtualDevice.start(configuration, dnssd: dnssd)
    }
}

extension VirtualDevice {
    /// The device's loopback address.
    package var directAddress: DirectAddress {
        DirectAddress(addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 }, port: port)
    }

    /// A request to commission this device by its address.
    package func request(nodeID: NodeID?, passcode: UInt32? = nil) -> CommissioningRequest {
        CommissioningRequest(
            locator: .address(directAddress), passcode: passcode ?? configuration.passcode, nodeID: nodeID)
    }
}

extension TransportNode {
    /// Runs `body` in the node's isolation (on its queue); `perform { _ in }` lets what is queued run.
    package func perform<T: Sendable>(_ body: @Sendable (isolated TransportNode) -> T) -> T { body(self) }
}

/// Runs `body` on a new exchange of `node` (the Interaction Model's protocol unless told), closing it afterwards.
package func rawExchange<T: Sendable>(
    _ node: isolated TransportNode, session: SessionID, protocolID: ProtocolID = .interactionModel,
    _ body: @Sendable (isolated TransportNode, Exchange) async throws -> T
) async throws -> T {
    let exchange = try node.openExchange(on: session, protocolID: protocolID)
    defer { exchange.close() }
    return try await body(node, exchange)
}
