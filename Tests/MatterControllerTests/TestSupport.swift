import Dispatch
import Foundation
import MatterController
import MatterCore
import MatterCredentials
import MatterDiscovery
import MatterStorage
import MatterTestSupport
import MatterTransport
import Synchronization

/// An in-memory network with DNS-SD, a state directory, and factories for controllers and fake devices.
final class TestBed: Sendable {
    let network = InMemoryNetwork()
    let dnssd = InMemoryDNSSDNetwork()
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A controller on the in-memory network. `browse` gives it the DNS-SD network; otherwise only
    /// direct addresses work.
    func controller(browse: Bool = false, trustStore: PAATrustStore? = nil, storePath: String? = nil) async throws
        -> Controller
    {
        let store = try ControllerStore(path: storePath ?? directory.storePath)
        let endpoint = network.makeEndpoint(queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint,
            discovery: browse ? .browser(dnssd.makeHost(hostName: "controller.local", addresses: [])) : .none,
            trustStore: try trustStore ?? DefaultPAATrustStore.make())
        configuration.localMRP = FakeDevice.fastMRP
        configuration.defaultPeerMRP = FakeDevice.fastMRP
        configuration.discoveryTimeout = .seconds(3)
        configuration.resolveTimeout = .seconds(1)
        configuration.responseTimeout = 3_000
        return try await Controller.open(configuration)
    }

    /// A fake device on the in-memory network (advertised on DNS-SD when `advertise`).
    func device(
        passcode: UInt32 = 20_202_021, discriminator: UInt16 = 3840, pkiDevice: String = "dimmable-light",
        reportedVendorID: VendorID? = nil, advertise: Bool = false
    ) async throws -> FakeDevice {
        let endpoint = network.makeEndpoint(queue: DispatchQueue(label: "test.device"))
        let host =
            advertise
            ? dnssd.makeHost(
                hostName: "device-\(endpoint.port).local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
            : nil
        return try await FakeDevice.start(
            transport: endpoint, passcode: passcode, discriminator: discriminator, pkiDevice: pkiDevice,
            reportedVendorID: reportedVendorID, dnssd: host)
    }
}

extension FakeDevice {
    /// The device's in-memory address for `--address`-style commissioning.
    var directAddress: DirectAddress {
        DirectAddress(addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 }, port: port)
    }

    /// A request to commission this device by its direct address.
    func request(nodeID: NodeID? = nil, passcode: UInt32? = nil) -> CommissioningRequest {
        CommissioningRequest(locator: .address(directAddress), passcode: passcode ?? self.passcode, nodeID: nodeID)
    }
}

/// Collects commissioning events across threads.
final class EventRecorder: Sendable {
    private let events = Mutex<[CommissioningEvent]>([])
    var record: @Sendable (CommissioningEvent) -> Void { { [self] event in events.withLock { $0.append(event) } } }
    var all: [CommissioningEvent] { events.withLock { $0 } }

    /// The stages that finished, in order.
    var succeeded: [CommissioningStage] {
        all.compactMap { event in
            if case .succeeded = event.outcome { return event.stage }
            return nil
        }
    }

    /// The stage that failed, if any.
    var failed: CommissioningStage? {
        all.first { event in
            if case .failed = event.outcome { return true }
            return false
        }?.stage
    }
}
