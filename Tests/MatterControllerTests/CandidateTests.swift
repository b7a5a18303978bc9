import Dispatch
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterSecureChannel
import MatterStorage
import MatterTestSupport
import MatterTransport
import Testing

/// Commissioning by a code several devices match: every candidate is tried, in discovery order.
@Suite("Commissioning tries every device a code matches")
struct CandidateTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func controller(browse network: InMemoryDNSSDNetwork) async throws -> Controller {
        let store = try ControllerStore(path: directory.storePath)
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller"))
        var configuration = ControllerConfiguration(
            store: store, transport: endpoint,
            discovery: .browser(network.makeHost(hostName: "controller.local", addresses: [])),
            trustStore: try DefaultPAATrustStore.make())
        configuration.discoveryTimeout = .seconds(5)
        return try await Controller.open(configuration)
    }

    @Test("manual codes of 6 devices sharing short discriminator 15: each commissions its own device")
    func sharedShortDiscriminator() async throws {
        let network = InMemoryDNSSDNetwork()
        var devices: [VirtualDevice] = []
        for index in 0..<6 {
            let host = network.makeHost(
                hostName: "device\(index).local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
            devices.append(
                try await VirtualDevices.start(
                    in: directory, name: "shared\(index)", passcode: UInt32(20_202_030 + index),
                    discriminator: UInt16(3840 + index), dnssd: host))
        }
        let controller = try await controller(browse: network)
        // Last device first: its code matches all six, and the five before it in discovery order
        // (publication order in memory) do not take its passcode.
        for index in (0..<6).reversed() {
            let code = try ManualPairingCode.encode(devices[index].setupPayload)
            let payload = try OnboardingPayloadParser.parse(code).payload
            #expect(payload.discriminator == .short(15))
            let node = NodeID(UInt64(100 + index))
            let result = try await controller.commission(CommissioningRequest(payload: payload, nodeID: node))
            #expect(result.node.nodeID == node)
            #expect(await devices[index].fabrics().map(\.nodeID) == [node])
        }
        // A wrong candidate costs the device one failed attempt (it sent Pake2); the right one none.
        for index in 0..<6 {
            let pase = await devices[index].statistics().pase
            #expect(pase.failed == 5 - index, "device \(index)")
            #expect(pase.established == 1)
        }
        await controller.stop()
        for device in devices { await device.stop() }
    }

    @Test("a code no candidate takes fails PASE once every matching device was tried")
    func noCandidateTakesThePasscode() async throws {
        let network = InMemoryDNSSDNetwork()
        var devices: [VirtualDevice] = []
        for index in 0..<2 {
            let host = network.makeHost(
                hostName: "other\(index).local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
            devices.append(
                try await VirtualDevices.start(
                    in: directory, name: "other\(index)", passcode: UInt32(20_202_040 + index),
                    discriminator: UInt16(3840 + index), dnssd: host))
        }
        let controller = try await controller(browse: network)
        var payload = devices[0].setupPayload
        payload.passcode = 20_202_049
        let parsed = try OnboardingPayloadParser.parse(try ManualPairingCode.encode(payload)).payload
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(CommissioningRequest(payload: parsed, nodeID: NodeID(5)))
        }
        #expect(error?.category == .pase)
        #expect(error?.description.contains("tried all 2 devices") == true)
        for device in devices {
            #expect(await device.isCommissionable())
            #expect(await device.statistics().pase.failed == 1)
        }
        await controller.stop()
        for device in devices { await device.stop() }
    }

    @Test("fleet discriminators: the first 16 have distinct short discriminators, 4096 distinct long ones")
    func fleetDiscriminators() {
        let first16 = (0..<16).map { Fleet.discriminator(ofDevice: $0, base: 3840) }
        #expect(Set(first16.map { $0 >> 8 }).count == 16)
        #expect(first16.prefix(3) == [3840, 0, 256])
        let all = (0..<4096).map { Fleet.discriminator(ofDevice: $0, base: 3840) }
        #expect(Set(all).count == 4096)
        #expect(all.allSatisfy { $0 <= 4095 })
    }
}
