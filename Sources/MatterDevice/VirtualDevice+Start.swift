import Dispatch
import MatterClusters
public import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
public import MatterDiscovery
import MatterInteraction
import MatterSecureChannel
import MatterStorage
import MatterTLV
import MatterTransport

extension VirtualDevice {
    /// Starts a device: loads or creates its state, binds its socket, installs its protocols, opens a
    /// basic commissioning window when it has no fabric, and advertises.
    public static func start(
        _ configuration: VirtualDeviceConfiguration, clock: any MatterClock = SystemClock(),
        dnssd: (any DNSSDAdvertiser)? = nil
    ) async throws(DeviceError) -> VirtualDevice {
        if let name = configuration.name, let problem = BasicInformationServer.nodeLabelProblem(name) {
            throw .invalidConfiguration("the name (NodeLabel) \"\(name)\" \(problem)")
        }
        guard configuration.maxPathsPerInvoke >= 1 else {
            throw .invalidConfiguration("MaxPathsPerInvoke must be at least 1")
        }
        let twin = configuration.twin
        // A twin's endpoints, identity and attestation are its recording's; its `deviceType` names nothing.
        let source = try DeviceSource(configuration)
        if twin != nil, !configuration.bridged.isEmpty {
            throw .invalidConfiguration(
                "a twin of a recorded device has the recording's endpoints; --bridged is refused")
        }
        let attestation: DeviceAttestationCredentials
        if let given = configuration.attestation {
            attestation = given
        } else {
            switch source {
            case .twin(let twin):
                attestation = try twinAttestation(for: twin, pkiDirectory: configuration.pkiDirectory)
            case .preset(let preset):
                attestation = try testAttestation(for: preset, pkiDirectory: configuration.pkiDirectory)
            }
        }
        let vendorID = configuration.vendorID ?? twin?.vendorID ?? VendorID.testVendor1
        let productID = configuration.productID ?? source.productID

        // Storage: the device keeps its PASE verifier and salt, never the passcode.
        let persistence: DevicePersistence
        let credentials: PASEResponder.Credentials
        let identity: (serialNumber: String, uniqueID: String)
        let rebootCount: UInt16
        let ownership: StoreOwnership
        do {
            // One process owns a state file: a second device on it would be the same node twice.
            ownership = try StoreOwnership.claim(
                path: configuration.storagePath, holder: "matter-emu device '\(configuration.storageNamespace)'")
        } catch {
            throw .storage("\(error)")
        }
        do {
            let store = try configuration.sharedStore ?? KeyValueStore(path: configuration.storagePath)
            persistence = DevicePersistence(store: store, namespace: configuration.storageNamespace)
            if configuration.factoryReset { try persistence.wipe() }
            credentials = try paseCredentials(configuration, persistence: persistence)
            let stored = try deviceIdentity(persistence: persistence)
            identity = (
                configuration.serialNumber ?? stored.serialNumber, configuration.uniqueID ?? stored.uniqueID
            )
            rebootCount = try countBoot(persistence: persistence)
        } catch let error as DeviceError {
            throw error  // `ownership` goes with this scope (its deinit releases the claim)
        } catch {
            throw .storage("\(error)")
        }

        let queue = DispatchQueue(label: "matter-emu.device.\(configuration.storageNamespace)")
        let gate: OfflineGate
        do {
            let udp = try await bind(configuration, queue: queue)
            let faulty: any DatagramTransport =
                configuration.faults.isNone ? udp : FaultInjectingTransport(udp, faults: configuration.faults)
            gate = OfflineGate(configuration.transportWrapper?(faulty) ?? faulty)
        } catch {
            // A port in use, a port below 1024 without the right, or an interface that does not exist
            // are the caller's choice of value: invalid configuration, not a start-up fault.
            switch error.code {
            case 98:  // EADDRINUSE
                throw .invalidConfiguration(
                    "UDP port \(configuration.port) is already in use (choose another with --secured-device-port)")
            case 13:  // EACCES
                throw .invalidConfiguration("UDP port \(configuration.port) needs privileges this process lacks")
            case 19 where configuration.interface != nil:  // ENODEV
                throw .invalidConfiguration("there is no network interface named \"\(configuration.interface ?? "")\"")
            default:
                throw .startup("cannot bind UDP port \(configuration.port): \(error)")
            }
        }
        var nodeConfiguration = TransportNode.Configuration()
        nodeConfiguration.localMRP = configuration.mrp
        let node = TransportNode(transport: gate, clock: clock, configuration: nodeConfiguration)
        // BasicInformation of a catalogue device (a twin's is its recording's, and this goes unused).
        var information =
            if case .preset(let preset) = source { preset.defaultInformation } else {
                BasicInformationServer.Configuration(productName: "", productID: productID)
            }
        information.vendorID = vendorID
        information.productID = productID
        information.nodeLabel = configuration.name ?? ""
        information.uniqueID = identity.uniqueID
        information.serialNumber = identity.serialNumber
        information.maxPathsPerInvoke = configuration.maxPathsPerInvoke
        let attributes = PersistentAttributeStore(persistence)
        let basicInformation = information
        let rootConfiguration = RootNode.Configuration(
            vendorID: vendorID, productID: productID, discriminator: configuration.discriminator,
            basicCredentials: credentials, attestation: attestation,
            failSafeExpirySeconds: configuration.failSafeExpirySeconds,
            interfaceName: configuration.interface ?? "eth0",
            bootReason: configuration.bootReason.rawValue, rebootCount: rebootCount)
        // The root node, the data model and the protocol handlers are made in the node's isolation
        // and stay there: the device holds them bound to the node.
        let built: Result<Parts, DeviceError> = await node.run { node in
            do {
                let root = try RootNode(
                    configuration: rootConfiguration, persistence: persistence, clock: clock,
                    resumption: CASEResumptionStore(), sessions: .of(node))
                root.pase.localMRP = configuration.mrp
                root.caseResponder.localMRP = configuration.mrp
                root.pase.maxPathsPerInvoke = configuration.maxPathsPerInvoke
                root.caseResponder.maxPathsPerInvoke = configuration.maxPathsPerInvoke
                root.checkpoint = configuration.checkpoint
                var endpoints: [Endpoint]
                switch source {
                case .twin(let twin):
                    // The recording's endpoints; the root node's own servers where the recording has none
                    // (the live ones are never taken from it: NodeTwin.liveClusters).
                    endpoints = twin.makeEndpoints(nodeLabel: configuration.name)
                    for server in root.makeClusterServers() where endpoints[0].cluster(server.id) == nil {
                        try endpoints[0].add(server)
                    }
                case .preset(let preset):
                    endpoints = preset.makeEndpoints(information: basicInformation)
                    endpoints += try Self.bridgedEndpoints(configuration, preset: preset, uniqueID: identity.uniqueID)
                    for server in root.makeClusterServers() { try endpoints[0].add(server) }
                }
                var modelConfiguration = DeviceDataModel.Configuration(context: node.context, store: attributes)
                modelConfiguration.timeScale = configuration.timeScale
                let dataModel = try DeviceDataModel(endpoints: endpoints, configuration: modelConfiguration)
                // Every script is checked before any starts: a device never runs half its scripts.
                for starting in [false, true] {
                    for assignment in configuration.scripts {
                        do throws(ScriptError) {
                            if starting {
                                try dataModel.scripts.start(assignment.script, on: assignment.target)
                            } else {
                                try dataModel.scripts.check(assignment.script, on: assignment.target)
                            }
                        } catch {
                            dataModel.shutDown()
                            return .failure(.invalidConfiguration("--script \(assignment): \(error.message)"))
                        }
                    }
                }
                dataModel.accessPolicy = root.fabrics.accessControl
                root.startTimers(on: dataModel)
                var serverConfiguration = InteractionServer.Configuration()
                serverConfiguration.maxPathsPerInvoke = Int(configuration.maxPathsPerInvoke)
                let server = InteractionServer.install(
                    on: node, dataModel: dataModel, configuration: serverConfiguration)
                // A PASE session is bound to the fabric AddNOC created under its fail-safe.
                server.subjectResolver = { session, parameters in
                    var subject = SubjectDescriptor(session: parameters.kind)
                    if case .pase = parameters.kind { subject.fabricIndex = root.fabricIndex(ofPASE: session) }
                    return subject
                }
                // The node owns the secure-channel responder from here on.
                SecureChannelResponder(pase: root.pase, case: root.caseResponder).install(on: node)
                // Answers to the commands the device sends (a switch's) come on their exchanges: no handler.
                let client = InteractionClient.install(on: node, registersHandler: false)
                return .success(
                    Parts(
                        dataModel: NodeBound(dataModel, on: node), root: NodeBound(root, on: node), server: server,
                        client: client))
            } catch let error as DeviceError {
                return .failure(error)
            } catch {
                return .failure(.startup("data model: \(error)"))
            }
        }
        let parts = try built.get()

        var advertiser: DeviceAdvertiser?
        // What finds the nodes a client-side device's bindings name: the DNS-SD it advertises on.
        var resolver: (any MatterNodeBrowser)?
        if configuration.advertise {
            if let dnssd {
                advertiser = DeviceAdvertiser(advertiser: dnssd)
                resolver = dnssd as? any MatterNodeBrowser
            } else {
                do {
                    let publishing = configuration.dnssdPublishing
                    let dnssd = try await configuration.mdns.start(
                        label: "matter-emu.device", publishing: publishing, interface: configuration.interface)
                    advertiser = DeviceAdvertiser(advertiser: dnssd)
                    resolver = dnssd
                } catch {
                    Logger(label: "device").warning("\(error); the device is reachable by direct address only")
                }
            }
        }
        let device = VirtualDevice(
            configuration: configuration, ownership: ownership, node: node,
            dataModel: parts.dataModel, root: parts.root,
            server: parts.server, client: parts.client, advertiser: advertiser, resolver: resolver, gate: gate,
            deviceTypeID: source.deviceTypeID, vendorID: vendorID,
            productID: productID)
        await device.wire()
        await node.start()
        return device
    }

    /// The device's socket. A port still held for a moment by this process's previous device on it (a
    /// restart: the old socket closes once its read source's cancellation has run) is tried again for
    /// up to half a second before it counts as in use.
    static func bind(_ configuration: VirtualDeviceConfiguration, queue: DispatchQueue) async throws(SocketError)
        -> UDPEndpoint
    {
        var attempt = 0
        while true {
            do {
                return try UDPEndpoint(port: configuration.port, interface: configuration.interface, queue: queue)
            } catch {
                attempt += 1
                // 98: EADDRINUSE
                guard error.code == 98, configuration.port != 0, attempt < 10 else { throw error }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The device's SerialNumber and UniqueID: random at first start (each its own 64/128 random bits, so
    /// neither is derived from the other or from anything a peer sees), kept in storage, so stable
    /// across restarts and new only after a factory reset (spec 11.1.5: UniqueID unique per device;
    /// controllers such as Home Assistant key their device registries on them).
    static func deviceIdentity(persistence: DevicePersistence) throws -> (serialNumber: String, uniqueID: String) {
        func stored(_ key: String, bytes: Int) throws -> String {
            if let value = try persistence.get(key), value.count == bytes { return Hex.encode(value).uppercased() }
            let value = try SecureRandom.bytes(count: bytes)
            try persistence.set(key, value)
            return Hex.encode(value).uppercased()
        }
        return (try stored("identity.serial", bytes: 8), try stored("identity.unique-id", bytes: 16))
    }

    /// GeneralDiagnostics RebootCount: one more at every start, kept in storage (a factory reset wipes
    /// it back to zero, spec 11.12.6.2); the count after this boot.
    static func countBoot(persistence: DevicePersistence) throws -> UInt16 {
        var count: UInt16 = 0
        if let bytes = try persistence.get("diag.reboot-count"), bytes.count == 2 {
            count = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        }
        count &+= 1
        try persistence.set("diag.reboot-count", [UInt8(count & 0xFF), UInt8(count >> 8)])
        return count
    }

    /// The PASE verifier for the configured passcode, with a salt kept in storage across restarts.
    static func paseCredentials(_ configuration: VirtualDeviceConfiguration, persistence: DevicePersistence) throws
        -> PASEResponder.Credentials
    {
        var salt = try persistence.get("pase.salt") ?? []
        if salt.count != 32 {
            salt = try SecureRandom.bytes(count: 32)
            try persistence.set("pase.salt", salt)
        }
        let pbkdf = PBKDFParameters(iterations: configuration.pbkdfIterations, salt: salt)
        do {
            try pbkdf.validate()
        } catch {
            throw DeviceError.invalidConfiguration("\(error)")
        }
        let verifier = try Spake2PlusPasscodeVerifier(
            passcode: configuration.passcode, salt: salt,
            iterations: Int(configuration.pbkdfIterations))
        return PASEResponder.Credentials(verifier: verifier, pbkdf: pbkdf)
    }
}

/// What `VirtualDevice.start` makes in the node's isolation.
private struct Parts: Sendable {
    let dataModel: NodeBound<DeviceDataModel>
    let root: NodeBound<RootNode>
    let server: InteractionServer
    /// The client a client-side device commands the nodes of its bindings with.
    let client: InteractionClient
}

extension VirtualDevice {
    /// A bridge's bridged devices on endpoints 2, 3, ... (none for other types; bridged devices for
    /// another type are refused).
    static func bridgedEndpoints(_ configuration: VirtualDeviceConfiguration, preset: DevicePreset, uniqueID: String)
        throws -> [Endpoint]
    {
        guard !configuration.bridged.isEmpty else { return [] }
        guard preset.isBridge else {
            throw DeviceError.invalidConfiguration("--bridged needs --type aggregator (a bridge)")
        }
        let total = configuration.bridged.reduce(0) { $0 + $1.count }
        guard total <= Self.maxBridged else {
            throw DeviceError.invalidConfiguration(
                "--bridged: at most \(Self.maxBridged) bridged devices, not \(total)")
        }
        var endpoints: [Endpoint] = []
        var counts: [String: Int] = [:]
        for (type, count) in configuration.bridged {
            do throws(DataModelError) {
                let bridged = try DevicePreset(cliName: type)
                for _ in 0..<count {
                    let id = EndpointID(UInt16(2 + endpoints.count))
                    counts[bridged.cliName, default: 0] += 1
                    endpoints.append(
                        try bridged.makeBridgedEndpoint(
                            id, label: "\(bridged.productName) \(counts[bridged.cliName] ?? 0)",
                            uniqueID: bridgedUniqueID(uniqueID, id)))
                }
            } catch {
                throw DeviceError.invalidConfiguration("--bridged \(type): \(error)")
            }
        }
        return endpoints
    }

    /// The most bridged devices one bridge holds (its endpoints stay below 1,000).
    static let maxBridged = 997

    /// A bridged device's UniqueID: the bridge's (its first 24 characters) and the endpoint, stable across
    /// boots, at most 32 characters.
    static func bridgedUniqueID(_ bridge: String, _ endpoint: EndpointID) -> String {
        "\(bridge.prefix(24))-\(endpoint.rawValue)"
    }
}
