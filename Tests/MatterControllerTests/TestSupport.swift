import Dispatch
import Foundation
import MatterController
import MatterCore
import MatterCredentials
import MatterDevice
import MatterDiscovery
import MatterStorage
import MatterTestSupport
import MatterTransport
import Synchronization

/// Virtual devices (MatterDevice) and controllers on loopback UDP, in-memory DNS-SD between them, and
/// a state directory.
final class TestBed: Sendable {
    let dnssd = InMemoryDNSSDNetwork()
    let directory: TemporaryDirectory
    private let devices = Atomic<Int>(0)

    /// Short MRP intervals, so tests with a stopped device fail quickly.
    static let fastMRP = VirtualDevices.fastMRP

    init() throws { directory = try TemporaryDirectory() }

    /// A controller on loopback. `browse` gives it the DNS-SD network; otherwise only direct
    /// addresses and the store's last addresses work.
    func controller(browse: Bool = false, trustStore: PAATrustStore? = nil, storePath: String? = nil) async throws
        -> Controller
    {
        let store = try ControllerStore(path: storePath ?? directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint,
            discovery: browse ? .browser(dnssd.makeHost(hostName: "controller.local", addresses: [])) : .none,
            trustStore: try trustStore ?? DefaultPAATrustStore.make())
        configuration.localMRP = Self.fastMRP
        configuration.defaultPeerMRP = Self.fastMRP
        configuration.discoveryTimeout = .seconds(3)
        configuration.resolveTimeout = .seconds(1)
        configuration.responseTimeout = 3_000
        return try await Controller.open(configuration)
    }

    /// A virtual dimmable light (by default) on loopback, advertised on the DNS-SD network when
    /// `advertise`; `vendorID` overrides what BasicInformation reports (a mismatch with its
    /// certification declaration).
    func device(
        _ type: String = "dimmable-light", passcode: UInt32 = 20_202_021, discriminator: UInt16 = 3840,
        vendorID: VendorID? = nil, advertise: Bool = false, bridged: [(type: String, count: Int)] = [],
        timeScale: Double = 1
    ) async throws -> VirtualDevice {
        let number = devices.add(1, ordering: .relaxed).newValue
        let loopback = [DNSSDAddress("127.0.0.1")].compactMap { $0 }
        let host = advertise ? dnssd.makeHost(hostName: "device-\(number).local", addresses: loopback) : nil
        return try await VirtualDevices.start(
            type, in: directory, name: "device\(number)", passcode: passcode, discriminator: discriminator,
            vendorID: vendorID, mrp: Self.fastMRP, dnssd: host, bridged: bridged,
            timeScale: timeScale)
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
