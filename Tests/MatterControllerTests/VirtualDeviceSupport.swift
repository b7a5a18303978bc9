import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterTLV
import MatterTransport

@testable import MatterDevice

/// The project's real virtual devices (`MatterDevice`) on loopback UDP, for end-to-end tests.
enum VirtualDevices {
    static func start(
        _ type: String = "dimmable-light", in directory: TemporaryDirectory, name: String,
        passcode: UInt32 = 20_202_021, discriminator: UInt16 = 3840, vendorID: VendorID? = nil,
        port: UInt16 = 0, dnssd: InMemoryDNSSD? = nil
    ) async throws -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(
            deviceType: type, storagePath: directory.path + "/\(name).sqlite", pkiDirectory: FakeDevice.pkiDirectory)
        configuration.port = port
        configuration.passcode = passcode
        configuration.discriminator = discriminator
        configuration.vendorID = vendorID
        configuration.storageNamespace = name
        configuration.advertise = dnssd != nil
        return try await VirtualDevice.start(configuration, dnssd: dnssd)
    }
}

extension VirtualDevice {
    /// The device's loopback address.
    var directAddress: DirectAddress {
        DirectAddress(addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 }, port: port)
    }

    /// A request to commission this device by its address.
    func request(nodeID: NodeID?, passcode: UInt32? = nil) -> CommissioningRequest {
        CommissioningRequest(
            locator: .address(directAddress), passcode: passcode ?? configuration.passcode, nodeID: nodeID)
    }

    /// An attribute as the device itself holds it (read from its data model on its queue, not over
    /// the network): the device side of a test.
    func deviceValue(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) async -> TLVValue? {
        let model = dataModel
        return await node.isolated { _ in
            try? model.readAttribute(
                ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute),
                context: InteractionContext(
                    subject: SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0),
                    session: .secure(localSessionID: 0)))
        }
    }
}
