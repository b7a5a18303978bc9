import Dispatch
import MatterController
import MatterCore
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterStorage
import MatterTestSupport
import MatterTransport
import Testing

/// After AddNOC the commissioner opens CASE at the address PASE used while DNS-SD looks the node up
/// (``ControllerConfiguration/caseAtCommissioningAddress``): a node whose operational record never
/// comes is still commissioned, through the full CASE checks; with the option off it is not.
@Suite("CASE at the commissioning address while the operational record is looked up")
struct OperationalLookupTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Commissions a light found by discriminator, with DNS-SD going away once AddNOC succeeded
    /// (so the operational record is never found).
    func commissionWithoutOperationalRecord(caseAtCommissioningAddress: Bool) async throws -> (
        Result<CommissioningResult, ControllerError>, VirtualDevice
    ) {
        let network = InMemoryDNSSDNetwork()
        let host = network.makeHost(hostName: "light.local", addresses: [DNSSDAddress("127.0.0.1")].compactMap { $0 })
        let device = try await VirtualDevices.start(in: directory, name: "light", discriminator: 3001, dnssd: host)
        var configuration = ControllerConfiguration(
            store: try ControllerStore(path: directory.storePath),
            transport: try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.controller")),
            discovery: .browser(network.makeHost(hostName: "controller.local", addresses: [])),
            trustStore: try DefaultPAATrustStore.make())
        configuration.discoveryTimeout = .seconds(1)
        configuration.caseAtCommissioningAddress = caseAtCommissioningAddress
        configuration.commissioningAttempts = 1
        configuration.checkpoint = { point in
            if point == .after(.addNOC) { network.setDaemonAvailable(false) }
        }
        let controller = try await Controller.open(configuration)
        let request = CommissioningRequest(
            locator: .discriminator(.long(3001), vendorID: nil, productID: nil), passcode: 20_202_021,
            nodeID: NodeID(42))
        let result: Result<CommissioningResult, ControllerError>
        do throws(ControllerError) {
            result = .success(try await controller.commission(request))
        } catch {
            result = .failure(error)
        }
        await controller.stop()
        return (result, device)
    }

    @Test("no operational record: CASE at the commissioning address commissions the node")
    func commissionedWithoutTheRecord() async throws {
        let (result, device) = try await commissionWithoutOperationalRecord(caseAtCommissioningAddress: true)
        let commissioned = try result.get()
        #expect(commissioned.node.nodeID == NodeID(42))
        #expect(commissioned.operationalAddress == "127.0.0.1:\(device.port)")
        #expect(await device.fabrics().map(\.nodeID) == [NodeID(42)])
        await device.stop()
    }

    @Test("no operational record and the option off: find-operational fails and the fabric is removed")
    func waitingForTheRecordFails() async throws {
        let (result, device) = try await commissionWithoutOperationalRecord(caseAtCommissioningAddress: false)
        guard case .failure(let error) = result else {
            Issue.record("commissioned without an operational record")
            return
        }
        #expect(error.description.contains("find-operational"))
        #expect(await device.fabrics().isEmpty)
        await device.stop()
    }
}
