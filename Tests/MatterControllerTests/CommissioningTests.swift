import MatterController
import MatterCore
import MatterCredentials
import MatterDevice
import MatterOnboarding
import MatterStorage
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Commissioning against a virtual device")
struct CommissioningTests {
    /// The stages a commissioning by direct address finishes, in order (attestation included).
    static let allStages: [CommissioningStage] = CommissioningStage.allCases

    @Test("a direct-address commissioning runs every stage in the SDK order and stores the node after completion")
    func commissionsByAddress() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        let controller = try await bed.controller()
        let events = EventRecorder()
        var request = device.request(nodeID: NodeID(5))
        request.name = "Desk lamp"
        request.room = "Office"
        let result = try await controller.commission(request, progress: events.record)

        #expect(events.succeeded == Self.allStages)
        #expect(events.failed == nil)
        #expect(result.node.nodeID == NodeID(5))
        let state = await device.state()
        #expect(state.fabrics.map(\.index) == [1])
        #expect(state.fabrics.first?.committed == true)
        #expect(state.fabrics.first?.adminSubjects == [controller.controllerNodeID.rawValue])
        #expect(!state.failSafeArmed && !state.commissionable)
        #expect(controller.controllerNodeID == NodeID(112_233))

        let stored = try #require(try controller.store.node(NodeID(5)))
        #expect(stored.name == "Desk lamp")
        #expect(stored.room == "Office")
        #expect(stored.vendorID == VendorID(0xFFF1))
        #expect(stored.productID == ProductID(0x8002))
        #expect(stored.attestationSkipped == false)
        #expect(stored.lastAddress == "127.0.0.1:\(device.port)")
        #expect(stored.deviceTypes.map(\.deviceType) == [DeviceTypeID(0x0016), DeviceTypeID(0x0101)])

        // The CASE session from commissioning carries the first commands.
        try await controller.on(NodeID(5))
        #expect(await device.state().onOff == true)
        try await controller.toggle(NodeID(5))
        #expect(await device.state().onOff == false)
        // Off, MoveToLevel is ignored unless the command's options override ExecuteIfOff (bit 0).
        let level = await device.state().level
        try await controller.moveToLevel(NodeID(5), level: 77)
        #expect(await device.state().level == level)
        try await controller.moveToLevel(NodeID(5), level: 77, optionsMask: 1, optionsOverride: 1)
        let dimmed = await device.state()
        #expect(dimmed.level == 77 && dimmed.onOff == false)
        try await controller.moveToLevel(NodeID(5), level: 200, withOnOff: true)
        let after = await device.state()
        #expect(after.level == 200 && after.onOff == true)
        await controller.stop()
        await device.stop()
    }

    @Test("a wrong passcode fails at PASE, with nothing stored and nothing on the device")
    func wrongPasscode() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        let controller = try await bed.controller()
        let events = EventRecorder()
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(
                device.request(nodeID: NodeID(7), passcode: 20_202_099), progress: events.record)
        }
        #expect(error?.category == .pase)
        #expect(events.failed == .pase)
        #expect("\(error.map { "\($0)" } ?? "")".contains("wrong setup passcode"))
        #expect(try controller.store.nodes().isEmpty)
        let state = await device.state()
        #expect(state.fabrics.isEmpty && !state.failSafeArmed && state.commissionable)
        await controller.stop()
        await device.stop()
    }

    @Test(
        "an untrusted PAA fails attestation, disarms the fail-safe, stores nothing, and the device stays commissionable"
    )
    func untrustedPAA() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        let sdkOnly = try PAATrustStore(
            certificates: [try PEM.decode(Self.sdkTestPAAFFF1, label: PEM.certificateLabel)])
        let controller = try await bed.controller(trustStore: sdkOnly)
        let events = EventRecorder()
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(device.request(nodeID: NodeID(8)), progress: events.record)
        }
        #expect(error?.category == .attestation)
        #expect(error?.underlying == .attestation(code: 101, reason: error.map { Self.reason($0) } ?? ""))
        #expect(events.failed == .attestationVerification)
        #expect(try controller.store.nodes().isEmpty)
        let state = await device.state()
        #expect(!state.failSafeArmed)
        #expect(state.fabrics.isEmpty)
        #expect(state.commissionable)
        await controller.stop()

        // Commissionable again, by a controller that trusts our PAA.
        let trusting = try await bed.controller()
        let result = try await trusting.commission(device.request(nodeID: NodeID(8)))
        #expect(result.node.nodeID == NodeID(8))
        await trusting.stop()
        await device.stop()
    }

    @Test("a device whose BasicInformation VendorID differs from its certification declaration fails attestation")
    func vendorMismatch() async throws {
        let bed = try TestBed()
        let device = try await bed.device(vendorID: VendorID(0xFFF2))
        let controller = try await bed.controller()
        let events = EventRecorder()
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(device.request(nodeID: NodeID(9)), progress: events.record)
        }
        #expect(error?.category == .attestation)
        if case .attestation(let code, _)? = error?.underlying {
            #expect(code == 604)
        } else {
            Issue.record("not an attestation error: \(String(describing: error))")
        }
        #expect(events.failed == .attestationVerification)
        #expect(try controller.store.nodes().isEmpty)
        let state = await device.state()
        #expect(!state.failSafeArmed && state.fabrics.isEmpty && state.commissionable)
        await controller.stop()
        await device.stop()
    }

    @Test("skipping attestation commissions an untrusted device, says so, and records it")
    func skipAttestation() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        let controller = try await bed.controller(trustStore: try PAATrustStore(certificates: []))
        let events = EventRecorder()
        var request = device.request(nodeID: NodeID(10))
        request.skipAttestation = true
        let result = try await controller.commission(request, progress: events.record)
        #expect(result.node.attestationSkipped)
        #expect(try controller.store.node(NodeID(10))?.attestationSkipped == true)
        #expect(
            events.all.contains { event in
                if case .skipped = event.outcome { return event.stage == .attestationVerification }
                return false
            })
        #expect(!events.succeeded.contains(.attestationVerification))
        await controller.stop()
        await device.stop()
    }

    @Test(
        "a QR payload finds the device by long discriminator and vendor on DNS-SD and resolves its operational record")
    func discoversByPayload() async throws {
        let bed = try TestBed()
        let other = try await bed.device(passcode: 20_202_022, discriminator: 1234, advertise: true)
        let device = try await bed.device(discriminator: 3841, advertise: true)
        let controller = try await bed.controller(browse: true)
        let payload = SetupPayload(
            vendorID: VendorID(0xFFF1), productID: ProductID(0x8002), discoveryCapabilities: .onNetwork,
            discriminator: .long(3841), passcode: device.configuration.passcode)
        let qr = try SetupQRCode.encode(payload)
        let parsed = try OnboardingPayloadParser.parse(qr).payload
        let events = EventRecorder()
        let result = try await controller.commission(CommissioningRequest(payload: parsed), progress: events.record)
        #expect(events.succeeded == Self.allStages)
        #expect(result.node.nodeID == NodeID(1))  // allocated
        #expect(await device.state().committedFabrics.count == 1)
        let untouched = await other.state()
        #expect(untouched.fabrics.isEmpty && !untouched.failSafeArmed && untouched.commissionable)
        try await controller.on(result.node.nodeID)
        #expect(await device.state().onOff == true)
        await controller.stop()
        await device.stop()
        await other.stop()
    }

    @Test("a manual code finds the device by short discriminator")
    func discoversByManualCode() async throws {
        let bed = try TestBed()
        let device = try await bed.device(discriminator: 0xA5C, advertise: true)
        let controller = try await bed.controller(browse: true)
        let code = try ManualPairingCode.encode(
            SetupPayload(discriminator: .long(0xA5C), passcode: device.configuration.passcode))
        let parsed = try OnboardingPayloadParser.parse(code).payload
        #expect(parsed.discriminator == .short(0xA))
        let result = try await controller.commission(CommissioningRequest(payload: parsed, nodeID: NodeID(3)))
        #expect(result.node.nodeID == NodeID(3))
        await controller.stop()
        await device.stop()
    }

    @Test("an unknown discriminator is a discovery failure")
    func unknownDiscriminator() async throws {
        let bed = try TestBed()
        let device = try await bed.device(discriminator: 100, advertise: true)
        let controller = try await bed.controller(browse: true)
        let events = EventRecorder()
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(
                CommissioningRequest(
                    locator: .discriminator(.long(101), vendorID: nil, productID: nil), passcode: 20_202_021),
                progress: events.record)
        }
        #expect(error?.category == .discovery)
        #expect(events.failed == .discovery)
        #expect(try controller.store.nodes().isEmpty)
        await controller.stop()
        await device.stop()
    }

    @Test("a silent address is reported as unreachable at PASE")
    func silentDevice() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        await device.stop()
        let controller = try await bed.controller()
        let error = await #expect(throws: ControllerError.self) {
            try await controller.commission(device.request(nodeID: NodeID(4)))
        }
        #expect(error?.category == .unreachable)
        if case .commissioning(let stage, _)? = error { #expect(stage == .pase) }
        await controller.stop()
    }

    @Test("a node ID or name already in the store is refused before anything is sent")
    func refusesDuplicates() async throws {
        let bed = try TestBed()
        let device = try await bed.device()
        let controller = try await bed.controller()
        var first = device.request(nodeID: NodeID(5))
        first.name = "lamp"
        _ = try await controller.commission(first)
        let second = try await bed.device()
        let again = await #expect(throws: ControllerError.self) {
            try await controller.commission(second.request(nodeID: NodeID(5)))
        }
        #expect(again?.category == .invalidArgument)
        var named = second.request(nodeID: NodeID(6))
        named.name = "LAMP"
        let sameName = await #expect(throws: ControllerError.self) { try await controller.commission(named) }
        #expect(sameName?.category == .invalidArgument)
        #expect(await second.statistics().transport.datagramsReceived == 0)
        await controller.stop()
        await device.stop()
        await second.stop()
    }

    @Test("stage names as printed")
    func stageNames() {
        #expect(CommissioningStage.readCommissioningInfo.name == "read-commissioning-info")
        #expect(CommissioningStage.addNOC.name == "add-noc")
        #expect(CommissioningStage.issueNOC.name == "issue-noc")
        #expect(CommissioningStage.csrRequest.name == "csr-request")
        #expect(CommissioningStage.pase.name == "pase")
    }

    static func reason(_ error: ControllerError) -> String {
        if case .attestation(_, let reason) = error.underlying { return reason }
        return ""
    }

    /// The SDK's `Chip-Test-PAA-FFF1-Cert.pem`, which does not issue our devices' PAI.
    static let sdkTestPAAFFF1 = """
        -----BEGIN CERTIFICATE-----
        MIIBlzCCAT2gAwIBAgIIYwzoqkaJ0oswCgYIKoZIzj0EAwIwHzEdMBsGA1UEAwwU
        TWF0dGVyIFRlc3QgUEFBIEZGRjEwHhcNMjEwNjI4MTQyMzQzWhcNNDEwNjI4MTQy
        MzQyWjAfMR0wGwYDVQQDDBRNYXR0ZXIgVGVzdCBQQUEgRkZGMTBZMBMGByqGSM49
        AgEGCCqGSM49AwEHA0IABCZWek7mw+ydJL2fTOfW4lfV1AmeFiSeumsku/+1yRNW
        NO3XG/U4EJpcK5QZqp54c0SQGQznM1+142I8cl7MdpqjYzBhMA8GA1UdEwEB/wQF
        MAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBRrelhB3iUDzkEGgKRDEymH
        egYd8DAfBgNVHSMEGDAWgBRrelhB3iUDzkEGgKRDEymHegYd8DAKBggqhkjOPQQD
        AgNIADBFAiEAjwDTY+13fdPJ9In1CMWyzo4HZgBkVboqU4ckW0R0oR8CIB/kBoOW
        TUpFFXv6vt6bYYqvuBlxiM/yACV6jj3gN8a1
        -----END CERTIFICATE-----
        """
}
