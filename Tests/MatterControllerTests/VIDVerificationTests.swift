import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterInteraction
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterDevice

/// Vendor ID verification (OperationalCredentials SetVIDVerificationStatement and
/// SignVIDVerificationRequest) on a real virtual device over loopback: the signature verifies with the
/// fabric's NOC public key over the TBS built from what the Fabrics attribute says.
@Suite("Vendor ID verification")
struct VIDVerificationTests {
    typealias C = CommandID.OperationalCredentials
    let directory: TemporaryDirectory
    let node = NodeID(31)

    init() throws { directory = try TemporaryDirectory() }

    func commissioned() async throws -> (VirtualDevice, Controller) {
        let device = try await VirtualDevices.start("on-off-plug", in: directory, name: "vid")
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.vid"))
        let configuration = ControllerConfiguration(
            store: try ControllerStore(path: directory.storePath), transport: endpoint, discovery: .none,
            trustStore: try DefaultPAATrustStore.make())
        let controller = try await Controller.open(configuration)
        _ = try await controller.commission(device.request(nodeID: node))
        return (device, controller)
    }

    /// Asks the device to sign `challenge` for fabric `index`; the response's fields.
    func sign(_ controller: Controller, _ index: UInt64, _ challenge: [UInt8]) async throws -> TLVElement {
        let result = try await controller.invoke(
            node, endpoint: .root, cluster: .operationalCredentials, command: C.signVIDVerificationRequest,
            fields: [TLVElement(tag: .context(0), .unsigned(index)), TLVElement(tag: .context(1), .bytes(challenge))])
        guard case .response(let command, let fields) = result, command == C.signVIDVerificationResponse else {
            throw TestFailure("no SignVIDVerificationResponse: \(result)")
        }
        return TLVElement(fields)
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Checks a response's signature against the device's fabric (NOC key, Fabrics values) and the
    /// attestation challenge of the device's CASE session with us.
    func verifies(_ response: TLVElement, challenge: [UInt8], device: VirtualDevice) async throws -> Bool {
        guard case .bytes(let signature)? = response[context: 2]?.value,
            response[context: 1]?.value == .unsigned(1)
        else { return false }
        let root = device.root
        let (fabric, attestation) = await device.node.perform { node in
            (
                root.value(in: node).committedFabrics.first,
                node.secureSessionList.first { if case .case = $0.kind { true } else { false } }?.keys
                    .attestationChallenge
            )
        }
        guard let fabric, let attestation else { return false }
        let tbs = OperationalCredentialsServer.vidVerificationTBS(
            clientChallenge: challenge, attestationChallenge: attestation, fabric: fabric)
        let nocKey = try P256PublicKey(x963Representation: try MatterCertificate(tlv: fabric.noc).publicKey)
        return nocKey.isValidSignature(try P256Signature(rawRepresentation: signature), for: tbs)
    }

    @Test("SignVIDVerificationRequest: a signature by the fabric's operational key; bad fields refused")
    func signs() async throws {
        let (device, controller) = try await commissioned()
        let challenge = try SecureRandom.bytes(count: 32)
        let response = try await sign(controller, 1, challenge)
        #expect(response[context: 0]?.value == .unsigned(1))
        #expect(try await verifies(response, challenge: challenge, device: device))
        // Another challenge, another message: the first signature does not cover it.
        let other = try SecureRandom.bytes(count: 32)
        #expect(try await !verifies(response, challenge: other, device: device))

        for (index, bytes) in [(UInt64(0), challenge), (1, Array(challenge.prefix(31))), (9, challenge)] {
            let error = await #expect(throws: ControllerError.self) { try await sign(controller, index, bytes) }
            #expect("\(error.map { "\($0)" } ?? "")".contains("CONSTRAINT_ERROR"))
        }
        await controller.stop()
        await device.stop()
    }

    @Test("SetVIDVerificationStatement: VendorID and statement land in Fabrics, are signed over, and persist")
    func setsTheStatement() async throws {
        var (device, controller) = try await commissioned()
        let statement = [UInt8](repeating: 0x21, count: 85)
        let set: ([TLVElement]) async throws -> InvokeResult = { fields in
            try await controller.invoke(
                node, endpoint: .root, cluster: .operationalCredentials, command: C.setVIDVerificationStatement,
                fields: fields)
        }
        _ = try await set([
            TLVElement(tag: .context(0), .unsigned(0xFFF2)), TLVElement(tag: .context(1), .bytes(statement)),
        ])
        let fabrics = try await controller.readAttribute(
            node, endpoint: .root, cluster: .operationalCredentials, attribute: .OperationalCredentials.fabrics)
        guard case .value(.array(let entries)) = fabrics, let entry = entries.first else {
            Issue.record("no Fabrics: \(fabrics)")
            return
        }
        #expect(entry[context: 2]?.value == .unsigned(0xFFF2))
        #expect(entry[context: 6]?.value == .bytes(statement))
        let challenge = try SecureRandom.bytes(count: 32)
        #expect(try await verifies(try await sign(controller, 1, challenge), challenge: challenge, device: device))

        for fields in [
            [TLVElement](),
            [TLVElement(tag: .context(0), .unsigned(0xFFF5))],
            [TLVElement(tag: .context(1), .bytes([1, 2, 3]))],
        ] {
            await #expect(throws: ControllerError.self) { try await set(fields) }
        }

        // Stored: a restarted device still has them.
        let port = device.port
        await device.stop()
        var configuration = device.configuration
        configuration.port = port
        device = try await VirtualDevice.start(configuration)
        let stored = await device.node.perform { [root = device.root] node in
            root.value(in: node).committedFabrics.first
        }
        #expect(stored?.vidVerificationStatement == statement)
        #expect(stored?.vendorID == VendorID(0xFFF2))
        await controller.stop()
        await device.stop()
    }
}
