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
        let preset: DevicePreset
        do {
            preset = try DevicePreset(cliName: configuration.deviceType)
        } catch {
            throw .invalidConfiguration("\(error)")
        }
        let attestation: DeviceAttestationCredentials
        do {
            attestation = try configuration.attestation ?? DeviceAttestationCredentials.load(pkiDirectory: configuration.pkiDirectory,
                                                                 device: configuration.deviceType)
        } catch {
            throw .attestation("\(error) (test PKI directory: \(configuration.pkiDirectory))")
        }
        let vendorID = configuration.vendorID ?? VendorID.testVendor1
        let productID = configuration.productID ?? preset.productID

        // Storage: the device keeps its PASE verifier and salt, never the passcode.
        let persistence: DevicePersistence
        let credentials: PASEResponder.Credentials
        do {
            let store = try KeyValueStore(path: configuration.storagePath)
            persistence = DevicePersistence(store: store, namespace: configuration.storageNamespace)
            if configuration.factoryReset { try persistence.wipe() }
            credentials = try paseCredentials(configuration, persistence: persistence)
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .storage("\(error)")
        }

        let queue = DispatchQueue(label: "matter-emu.device.\(configuration.storageNamespace)")
        let transport: any DatagramTransport
        do {
            let udp = try UDPEndpoint(port: configuration.port, interface: configuration.interface, queue: queue)
            let faulty: any DatagramTransport =
                configuration.faults.isNone ? udp : FaultInjectingTransport(udp, faults: configuration.faults)
            transport = configuration.transportWrapper?(faulty) ?? faulty
        } catch {
            throw .startup("cannot bind UDP port \(configuration.port): \(error)")
        }
        var nodeConfiguration = TransportNode.Configuration()
        nodeConfiguration.localMRP = configuration.mrp
        let node = TransportNode(transport: transport, clock: clock, configuration: nodeConfiguration)
        let root = try RootNode(
            configuration: .init(vendorID: vendorID, productID: productID, discriminator: configuration.discriminator,
                                 basicCredentials: credentials, attestation: attestation,
                                 interfaceName: configuration.interface ?? "eth0"),
            persistence: persistence, clock: clock, resumption: CASEResumptionStore())
        root.node = node
        root.pase.localMRP = configuration.mrp
        root.caseResponder.localMRP = configuration.mrp
        root.checkpoint = configuration.checkpoint

        var information = preset.defaultInformation
        information.vendorID = vendorID
        information.productID = productID
        information.nodeLabel = configuration.name ?? ""
        information.uniqueID = configuration.storageNamespace
        information.serialNumber = configuration.storageNamespace
        let attributes = PersistentAttributeStore(persistence)
        let basicInformation = information
        let built: Result<(DeviceDataModel, InteractionServer), DeviceError> = await node.run { node in
            do {
                let endpoints = preset.makeEndpoints(information: basicInformation)
                for id in RootNode.clusterIDs { try endpoints[0].add(RootClusterServer(id, root: root)) }
                let dataModel = try DeviceDataModel(endpoints: endpoints,
                                                    configuration: .init(node: node, store: attributes))
                dataModel.accessPolicy = root.accessControl
                let server = InteractionServer.install(on: node, dataModel: dataModel, clock: node.clock)
                // A PASE session is bound to the fabric AddNOC created under its fail-safe.
                server.subjectResolver = { session, parameters in
                    var subject = SubjectDescriptor(session: parameters.kind)
                    if case .pase = parameters.kind { subject.fabricIndex = root.fabricIndex(of: session) }
                    return subject
                }
                return .success((dataModel, server))
            } catch {
                return .failure(.startup("data model: \(error)"))
            }
        }
        let (dataModel, server) = try built.get()

        let secureChannel = SecureChannelResponder(pase: root.pase, case: root.caseResponder)
        await secureChannel.install(on: node)
        var advertiser: DeviceAdvertiser?
        if configuration.advertise {
            if let dnssd {
                advertiser = DeviceAdvertiser(advertiser: dnssd)
            } else {
                do {
                    let publishing = configuration.dnssdPublishing
                    let dnssd = try await AvahiDNSSD.start(label: "matter-emu.device", publishing: publishing)
                    advertiser = DeviceAdvertiser(advertiser: dnssd)
                } catch {
                    Logger(label: "device").warning("\(error); the device is reachable by direct address only")
                }
            }
        }
        let device = VirtualDevice(configuration: configuration, node: node, dataModel: dataModel, root: root,
                                   server: server, secureChannel: secureChannel, advertiser: advertiser,
                                   preset: preset, vendorID: vendorID, productID: productID)
        await device.wire()
        await node.start()
        return device
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
        let verifier = try Spake2PlusPasscodeVerifier(passcode: configuration.passcode, salt: salt,
                                                      iterations: Int(configuration.pbkdfIterations))
        return PASEResponder.Credentials(verifier: verifier, pbkdf: pbkdf)
    }
}
