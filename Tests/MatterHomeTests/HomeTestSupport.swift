import Dispatch
import Foundation
import MatterClusters
import MatterController
import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterDevice
@testable import MatterHome

/// Virtual devices (MatterDevice, in process, loopback UDP) advertised on an in-memory DNS-SD that
/// the homes browse, and homes over one state directory.
final class HomeTestBed: Sendable {
    let directory: TemporaryDirectory
    let stateDirectory: String
    let dnssd = InMemoryDNSSDNetwork()

    static let fastMRP = VirtualDevices.fastMRP

    init() throws {
        directory = try TemporaryDirectory(prefix: "matter-home-tests")
        stateDirectory = directory.path + "/controller"
    }

    /// A virtual device of `type`, advertised with `discriminator`.
    func device(
        _ type: String, name: String, discriminator: UInt16, port: UInt16 = 0,
        bridged: [(type: String, count: Int)] = [], maxPathsPerInvoke: UInt16 = 1
    ) async throws -> VirtualDevice {
        let host = dnssd.makeHost(hostName: "\(name).local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
        return try await VirtualDevices.start(
            type, in: directory, name: name, discriminator: discriminator, port: port, mrp: Self.fastMRP, dnssd: host,
            bridged: bridged, maxPathsPerInvoke: maxPathsPerInvoke)
    }

    /// The home's configuration: this state directory, the in-memory DNS-SD, fast timers.
    func configuration() -> Home.Configuration {
        var configuration = Home.Configuration(stateDirectory: stateDirectory, discovery: .none)
        let browser = dnssd.makeHost(hostName: "home.local", addresses: [])
        configuration.resubscribeLimit = .milliseconds(500)
        configuration.subscriptionMaxInterval = 2
        configuration.controllerSettings = { controller in
            controller.discovery = .browser(browser)
            controller.localMRP = HomeTestBed.fastMRP
            controller.defaultPeerMRP = HomeTestBed.fastMRP
            controller.discoveryTimeout = .seconds(5)
            controller.resolveTimeout = .seconds(2)
            controller.responseTimeout = 3_000
        }
        return configuration
    }

    func openHome() async throws -> Home { try await Home.open(configuration: configuration()) }

    /// A plain controller on the same state directory (another administrator of the same fabric).
    func otherController() async throws -> Controller {
        let store = try ControllerStore(path: ControllerStateDirectory.storePath(in: stateDirectory))
        var configuration = ControllerConfiguration(
            store: store, transport: try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.other")),
            discovery: .none, trustStore: try DefaultPAATrustStore.make())
        configuration.localMRP = Self.fastMRP
        configuration.defaultPeerMRP = Self.fastMRP
        return try await Controller.open(configuration)
    }
}

extension VirtualDevice {
    /// The device's QR code.
    var qrCode: String { (try? SetupQRCode.encode(setupPayload)) ?? "" }
    /// The device's manual pairing code.
    var setupPayloadManual: String { (try? ManualPairingCode.encode(setupPayload)) ?? "" }

    /// An attribute as the device itself holds it (read from its data model on its queue).
    func deviceValue(_ endpoint: UInt16, _ cluster: ClusterID, _ attribute: AttributeID) async -> TLVValue? {
        let model = dataModel
        return await node.perform { node in
            try? model.value(in: node).readAttribute(
                ConcreteAttributePath(endpoint: EndpointID(endpoint), cluster: cluster, attribute: attribute),
                context: InteractionContext(
                    subject: SubjectDescriptor(authMode: .pase, fabricIndex: 0, subject: 0),
                    session: .secure(localSessionID: 0)))
        }
    }
}

/// Commissions `devices` in one session; returns their IDs in order.
func commission(_ devices: [VirtualDevice], in structure: Structure) async throws -> [String] {
    try await structure.prepareForMatterCommissioning()
    var ids: [String] = []
    for device in devices { ids.append(try await structure.commissionMatterDevice(onboardingPayload: device.qrCode)) }
    #expect(try structure.completeMatterCommissioning() == ids)
    return ids
}

/// Waits (at most `limit`) until `condition` holds, re-checking on every change the device reports.
func eventually(
    _ device: HomeDevice, limit: Duration = .seconds(20), _ condition: @escaping @Sendable () -> Bool
) async -> Bool {
    if condition() { return true }
    return await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await _ in device.types where condition() { return true }
            return false
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return condition()
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

extension Query where Element == HomeDevice {
    /// The devices in the order they were commissioned (node IDs ascending), for tests that index them.
    func byID() async throws -> [HomeDevice] {
        try await list().sorted { (UInt64($0.id) ?? 0) < (UInt64($1.id) ?? 0) }
    }
}
