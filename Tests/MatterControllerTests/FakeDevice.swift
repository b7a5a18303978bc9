import Dispatch
import Foundation
import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDiscovery
import MatterInteraction
import MatterSecureChannel
import MatterTLV
import MatterTestSupport
import MatterTransport

/// A small commissionable device for the controller's tests, until the real `MatterDevice` lands:
/// PASE and CASE responders, and an interaction server over `FakeDeviceModel` (root-node
/// commissioning commands, OnOff and LevelControl on endpoint 1).
final class FakeDevice: Sendable {
    let node: TransportNode
    let model: FakeDeviceModel
    let server: InteractionServer
    let pase: PASEResponder
    let port: UInt16
    let passcode: UInt32
    let discriminator: UInt16

    /// Fast retransmissions, so tests with a stopped device fail quickly.
    static let fastMRP = VirtualDevices.fastMRP
    static let salt = Array("SPAKE2P Key Salt".utf8)

    /// Starts a device on `transport`. `reportedVendorID` overrides what BasicInformation says (to
    /// provoke a vendor mismatch); `dnssd` makes it advertise itself.
    static func start(
        transport: any DatagramTransport, passcode: UInt32 = 20_202_021, discriminator: UInt16 = 3840,
        pkiDevice: String = "dimmable-light", reportedVendorID: VendorID? = nil, dnssd: InMemoryDNSSD? = nil
    ) async throws -> FakeDevice {
        let attestation = try DeviceAttestationCredentials.load(pkiDirectory: TestPaths.pkiDirectory, device: pkiDevice)
        var configuration = TransportNode.Configuration()
        configuration.localMRP = fastMRP
        let node = TransportNode(transport: transport, configuration: configuration)
        await node.start()
        let verifier = try Spake2PlusPasscodeVerifier(passcode: passcode, salt: salt, iterations: 1000)
        let pase = PASEResponder(
            credentials: .init(verifier: verifier, pbkdf: PBKDFParameters(iterations: 1000, salt: salt)),
            localMRP: fastMRP)
        let model = FakeDeviceModel(
            attestation: attestation, vendorID: reportedVendorID ?? attestation.dac.vendorID ?? VendorID(0),
            productID: attestation.dac.productID ?? ProductID(0), pase: pase, dnssd: dnssd, port: transport.port)
        let caseResponder = CASEResponder(credentials: model, localMRP: fastMRP)
        await SecureChannelResponder(pase: pase, case: caseResponder).install(on: node)
        let server = await InteractionServer.install(on: node, dataModel: model)
        await node.perform { node in model.node = node }
        if let dnssd {
            _ = try await dnssd.publish(
                CommissionableAdvertisement(
                    port: transport.port, longDiscriminator: discriminator, commissioningMode: .basic,
                    vendorID: attestation.dac.vendorID, productID: attestation.dac.productID,
                    sessionParameters: MRPAdvertisement(idleInterval: 60, activeInterval: 60, activeThreshold: 4000)))
        }
        return FakeDevice(
            node: node, model: model, server: server, pase: pase, port: transport.port, passcode: passcode,
            discriminator: discriminator)
    }

    private init(
        node: TransportNode, model: FakeDeviceModel, server: InteractionServer, pase: PASEResponder, port: UInt16,
        passcode: UInt32, discriminator: UInt16
    ) {
        self.node = node
        self.model = model
        self.server = server
        self.pase = pase
        self.port = port
        self.passcode = passcode
        self.discriminator = discriminator
    }

    func stop() async { await node.stop() }

    /// Runs `body` on the device's queue, where its model lives.
    func inspect<T: Sendable>(_ body: @Sendable (FakeDeviceModel) -> T) async -> T {
        let model = self.model
        return await node.perform { _ in body(model) }
    }
}

/// The fake device's data model: just enough of the root node for commissioning (fail-safe,
/// attestation, CSR, root certificate, NOC, fabric commit and removal, commissioning windows) and
/// an OnOff + LevelControl endpoint. Confined to the device node's queue.
final class FakeDeviceModel: DataModel, CASECredentialsProvider, @unchecked Sendable {
    struct Fabric {
        let index: UInt8
        let credentials: CASECredentials
        let adminSubject: UInt64
        var committed: Bool
    }

    let attestation: DeviceAttestationCredentials
    var vendorID: VendorID
    let productID: ProductID
    let pase: PASEResponder
    let dnssd: InMemoryDNSSD?
    let port: UInt16
    weak var node: TransportNode?
    weak var observer: (any DataModelObserver)?

    // Commissioning state.
    var failSafeArmed = false
    var breadcrumb: UInt64 = 0
    var pendingRoot: [UInt8]?
    var pendingKey: P256PrivateKey?
    var fabrics: [Fabric] = []
    var nextFabricIndex: UInt8 = 1
    var regulatoryConfig: UInt8 = 2
    /// What happened, in order ("armed 60", "disarmed", "committed 1", ...).
    var log: [String] = []
    var openedWindow: (discriminator: UInt16, verifier: [UInt8])?

    // Application state.
    var onOff = false
    var onTime: UInt16 = 0
    var level: UInt8 = 1
    var versions: [ClusterID: UInt32] = [:]

    init(
        attestation: DeviceAttestationCredentials, vendorID: VendorID, productID: ProductID, pase: PASEResponder,
        dnssd: InMemoryDNSSD?, port: UInt16
    ) {
        self.attestation = attestation
        self.vendorID = vendorID
        self.productID = productID
        self.pase = pase
        self.dnssd = dnssd
        self.port = port
    }

    // MARK: CASE

    func caseCredentials() -> [CASECredentials] { fabrics.map(\.credentials) }

    var committedFabrics: [Fabric] { fabrics.filter(\.committed) }

    // MARK: Structure

    static let root = EndpointID(0)
    static let light = EndpointID(1)

    let endpoints = [root, light]

    func clusters(endpoint: EndpointID) -> [ClusterID] {
        switch endpoint {
        case Self.root:
            [
                .descriptor, .basicInformation, .generalCommissioning, .administratorCommissioning,
                .operationalCredentials,
            ]
        case Self.light: [.onOff, .levelControl, .descriptor].sorted()
        default: []
        }
    }

    func attributes(endpoint: EndpointID, cluster: ClusterID) -> [AttributeInfo] {
        let globals = [AttributeInfo(.featureMap), AttributeInfo(.clusterRevision)]
        let ids: [AttributeInfo]
        switch cluster {
        case .descriptor:
            ids = [
                AttributeInfo(.Descriptor.deviceTypeList, list: true),
                AttributeInfo(.Descriptor.serverList, list: true),
                AttributeInfo(.Descriptor.partsList, list: true),
            ]
        case .basicInformation:
            ids = [AttributeInfo(.BasicInformation.vendorID), AttributeInfo(.BasicInformation.productID)]
        case .generalCommissioning:
            ids = [
                AttributeInfo(.GeneralCommissioning.breadcrumb, write: .administer),
                AttributeInfo(.GeneralCommissioning.basicCommissioningInfo),
                AttributeInfo(.GeneralCommissioning.regulatoryConfig),
                AttributeInfo(.GeneralCommissioning.locationCapability),
                AttributeInfo(.GeneralCommissioning.supportsConcurrentConnection),
            ]
        case .operationalCredentials:
            ids = [
                AttributeInfo(.OperationalCredentials.commissionedFabrics),
                AttributeInfo(.OperationalCredentials.currentFabricIndex),
            ]
        case .administratorCommissioning: ids = [AttributeInfo(AttributeID(0))]
        case .onOff:
            ids = [
                AttributeInfo(.OnOff.onOff), AttributeInfo(.OnOff.onTime, write: .operate),
                AttributeInfo(.OnOff.startUpOnOff, write: .manage),
            ]
        case .levelControl:
            ids = [AttributeInfo(.LevelControl.currentLevel), AttributeInfo(AttributeID(0x0011), write: .operate)]
        default: ids = []
        }
        return ids.isEmpty ? [] : ids + globals
    }

    func acceptedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandInfo] {
        func schema(_ command: CommandID) -> CommandInfo? {
            ClusterRegistry.standard.cluster(cluster)?.command(command).map { CommandInfo($0) }
        }
        let ids: [CommandID]
        switch cluster {
        case .generalCommissioning:
            ids = [
                .GeneralCommissioning.armFailSafe, .GeneralCommissioning.setRegulatoryConfig,
                .GeneralCommissioning.commissioningComplete,
            ]
        case .operationalCredentials:
            ids = [
                .OperationalCredentials.attestationRequest, .OperationalCredentials.certificateChainRequest,
                .OperationalCredentials.csrRequest, .OperationalCredentials.addNOC,
                .OperationalCredentials.removeFabric, .OperationalCredentials.addTrustedRootCertificate,
            ]
        case .administratorCommissioning: ids = [.AdministratorCommissioning.openCommissioningWindow]
        case .onOff: ids = [.OnOff.off, .OnOff.on, .OnOff.toggle, .OnOff.offWithEffect]
        case .levelControl: ids = [.LevelControl.moveToLevel, .LevelControl.moveToLevelWithOnOff]
        default: ids = []
        }
        return ids.compactMap(schema)
    }

    func generatedCommands(endpoint: EndpointID, cluster: ClusterID) -> [CommandID] {
        ClusterRegistry.standard.cluster(cluster)?.responses.map(\.id) ?? []
    }

    func dataVersion(endpoint: EndpointID, cluster: ClusterID) -> UInt32 { versions[cluster, default: 100] }

    func checkAccess(_ subject: SubjectDescriptor, endpoint: EndpointID, cluster: ClusterID, privilege: Privilege)
        -> Bool
    {
        switch subject.authMode {
        case .pase: return true
        case .case: return fabrics.contains { $0.index == subject.fabricIndex && $0.adminSubject == subject.subject }
        case .group: return false
        }
    }

    // MARK: Attributes

    func readAttribute(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue {
        switch (path.cluster, path.attribute) {
        case (_, .featureMap): return .unsigned(path.cluster == .levelControl ? 3 : path.cluster == .onOff ? 1 : 0)
        case (_, .clusterRevision):
            return .unsigned(UInt64(ClusterRegistry.standard.cluster(path.cluster)?.revision ?? 1))
        case (.descriptor, .Descriptor.deviceTypeList):
            let type: UInt64 = path.endpoint == Self.root ? 0x0016 : 0x0101
            return .array([TLVElement(.structure([.ctx(0, type), .ctx(1, 3)]))])
        case (.descriptor, .Descriptor.serverList):
            return .array(clusters(endpoint: path.endpoint).map { TLVElement(.unsigned(UInt64($0.rawValue))) })
        case (.descriptor, .Descriptor.partsList):
            return .array(path.endpoint == Self.root ? [TLVElement(.unsigned(1))] : [])
        case (.basicInformation, .BasicInformation.vendorID): return .unsigned(UInt64(vendorID.rawValue))
        case (.basicInformation, .BasicInformation.productID): return .unsigned(UInt64(productID.rawValue))
        case (.generalCommissioning, .GeneralCommissioning.breadcrumb): return .unsigned(breadcrumb)
        case (.generalCommissioning, .GeneralCommissioning.basicCommissioningInfo):
            return .structure([.ctx(0, 60), .ctx(1, 900)])
        case (.generalCommissioning, .GeneralCommissioning.regulatoryConfig): return .unsigned(UInt64(regulatoryConfig))
        case (.generalCommissioning, .GeneralCommissioning.locationCapability): return .unsigned(2)
        case (.generalCommissioning, .GeneralCommissioning.supportsConcurrentConnection): return .bool(true)
        case (.operationalCredentials, .OperationalCredentials.commissionedFabrics):
            return .unsigned(UInt64(committedFabrics.count))
        case (.operationalCredentials, .OperationalCredentials.currentFabricIndex):
            return .unsigned(UInt64(context.subject.fabricIndex))
        case (.administratorCommissioning, AttributeID(0)): return .unsigned(openedWindow == nil ? 0 : 1)
        case (.onOff, .OnOff.onOff): return .bool(onOff)
        case (.onOff, .OnOff.onTime): return .unsigned(UInt64(onTime))
        case (.onOff, .OnOff.startUpOnOff): return .null
        case (.levelControl, .LevelControl.currentLevel): return .unsigned(UInt64(level))
        case (.levelControl, AttributeID(0x0011)): return .null
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func writeAttribute(_ path: ConcreteAttributePath, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        guard path.cluster == .onOff, path.attribute == .OnOff.onTime, case .replace(let value) = write else {
            throw StatusIB(.unsupportedWrite)
        }
        guard case .unsigned(let number) = value, let time = UInt16(exactly: number) else {
            throw StatusIB(.constraintError)
        }
        onTime = time
        changed(path.endpoint, .onOff, .OnOff.onTime)
    }

    // MARK: Commands

    func invoke(_ path: ConcreteCommandPath, fields: TLVElement, context: InteractionContext) throws(StatusIB)
        -> CommandResponse?
    {
        switch (path.cluster, path.command) {
        case (.generalCommissioning, .GeneralCommissioning.armFailSafe):
            let expiry = fields[context: 0]?.uint ?? 0
            if expiry == 0 {
                if failSafeArmed { rollBack() }
                log.append("disarmed")
            } else {
                failSafeArmed = true
                breadcrumb = fields[context: 1]?.uint ?? 0
                log.append("armed \(expiry)")
            }
            return commissioningResponse(.GeneralCommissioning.armFailSafeResponse, 0)
        case (.generalCommissioning, .GeneralCommissioning.setRegulatoryConfig):
            regulatoryConfig = UInt8(truncatingIfNeeded: fields[context: 0]?.uint ?? 0)
            log.append("regulatory \(regulatoryConfig) \(fields[context: 1]?.string ?? "")")
            return commissioningResponse(.GeneralCommissioning.setRegulatoryConfigResponse, 0)
        case (.generalCommissioning, .GeneralCommissioning.commissioningComplete):
            guard context.subject.authMode == .case else {
                return commissioningResponse(.GeneralCommissioning.commissioningCompleteResponse, 2)
            }
            guard failSafeArmed else {
                return commissioningResponse(.GeneralCommissioning.commissioningCompleteResponse, 3)
            }
            for index in fabrics.indices where fabrics[index].index == context.subject.fabricIndex {
                fabrics[index].committed = true
            }
            failSafeArmed = false
            breadcrumb = 0
            pendingRoot = nil
            pendingKey = nil
            log.append("committed \(context.subject.fabricIndex)")
            return commissioningResponse(.GeneralCommissioning.commissioningCompleteResponse, 0)
        case (.operationalCredentials, .OperationalCredentials.certificateChainRequest):
            let der = fields[context: 0]?.uint == 1 ? attestation.dac.derEncoded : attestation.pai.derEncoded
            return CommandResponse(
                command: .OperationalCredentials.certificateChainResponse, fields: .structure([.ctx(0, der)]))
        case (.operationalCredentials, .OperationalCredentials.attestationRequest):
            guard let nonce = fields[context: 0]?.bytes, nonce.count == 32 else { throw StatusIB(.invalidCommand) }
            let elements = attestation.attestationElements(nonce: nonce).tlvEncoded
            return CommandResponse(
                command: .OperationalCredentials.attestationResponse,
                fields: .structure([.ctx(0, elements), .ctx(1, try sign(elements, context))]))
        case (.operationalCredentials, .OperationalCredentials.csrRequest):
            guard failSafeArmed else { throw StatusIB(.failsafeRequired) }
            guard let nonce = fields[context: 0]?.bytes, nonce.count == 32 else { throw StatusIB(.invalidCommand) }
            guard let key = try? P256PrivateKey(), let csr = try? CertificateSigningRequest.create(key: key) else {
                throw StatusIB(.failure)
            }
            pendingKey = key
            let elements = NOCSRElements(csr: csr.derEncoded, csrNonce: nonce).tlvEncoded
            return CommandResponse(
                command: .OperationalCredentials.csrResponse,
                fields: .structure([.ctx(0, elements), .ctx(1, try sign(elements, context))]))
        case (.operationalCredentials, .OperationalCredentials.addTrustedRootCertificate):
            guard failSafeArmed else { throw StatusIB(.failsafeRequired) }
            guard pendingRoot == nil, let root = fields[context: 0]?.bytes else { throw StatusIB(.constraintError) }
            pendingRoot = root
            log.append("root added")
            return nil
        case (.operationalCredentials, .OperationalCredentials.addNOC):
            return try addNOC(fields)
        case (.operationalCredentials, .OperationalCredentials.removeFabric):
            let index = UInt8(truncatingIfNeeded: fields[context: 0]?.uint ?? 0)
            guard fabrics.contains(where: { $0.index == index }) else { return nocResponse(11, index: nil) }
            fabrics.removeAll { $0.index == index }
            log.append("removed \(index)")
            return nocResponse(0, index: index)
        case (.administratorCommissioning, .AdministratorCommissioning.openCommissioningWindow):
            guard let verifierBytes = fields[context: 1]?.bytes, let salt = fields[context: 4]?.bytes,
                let iterations = fields[context: 3]?.uint, let discriminator = fields[context: 2]?.uint,
                let verifier = try? Spake2PlusPasscodeVerifier(serialized: verifierBytes)
            else { throw StatusIB.cluster(3) }
            pase.credentials = .init(
                verifier: verifier,
                pbkdf: PBKDFParameters(iterations: UInt32(truncatingIfNeeded: iterations), salt: salt))
            openedWindow = (UInt16(truncatingIfNeeded: discriminator), verifierBytes)
            log.append("window \(discriminator)")
            return nil
        case (.onOff, .OnOff.on): setOnOff(true, path.endpoint)
        case (.onOff, .OnOff.off), (.onOff, .OnOff.offWithEffect): setOnOff(false, path.endpoint)
        case (.onOff, .OnOff.toggle): setOnOff(!onOff, path.endpoint)
        case (.levelControl, .LevelControl.moveToLevel), (.levelControl, .LevelControl.moveToLevelWithOnOff):
            guard let value = fields[context: 0]?.uint, let newLevel = UInt8(exactly: value), newLevel <= 254 else {
                throw StatusIB(.constraintError)
            }
            level = newLevel
            changed(path.endpoint, .levelControl, .LevelControl.currentLevel)
            if path.command == .LevelControl.moveToLevelWithOnOff { setOnOff(newLevel > 1, path.endpoint) }
        default:
            throw StatusIB(.unsupportedCommand)
        }
        return nil
    }

    private func addNOC(_ fields: TLVElement) throws(StatusIB) -> CommandResponse {
        guard failSafeArmed else { throw StatusIB(.failsafeRequired) }
        guard let root = pendingRoot, let key = pendingKey else { return nocResponse(3, index: nil) }
        guard let nocBytes = fields[context: 0]?.bytes, let noc = try? MatterCertificate(tlv: nocBytes),
            let rootCertificate = try? MatterCertificate(tlv: root), let ipk = fields[context: 2]?.bytes,
            let admin = fields[context: 3]?.uint, let nodeID = noc.subject.nodeID, let fabricID = noc.subject.fabricID
        else { return nocResponse(3, index: nil) }
        guard noc.publicKey == key.publicKey.x963Representation else { return nocResponse(1, index: nil) }
        let index = nextFabricIndex
        nextFabricIndex += 1
        let credentials = CASECredentials(
            fabricIndex: index, fabricID: fabricID, nodeID: nodeID, rcac: root,
            rootPublicKey: rootCertificate.publicKey,
            icac: fields[context: 1]?.bytes, noc: nocBytes, operationalKey: key, ipkEpochKeys: [ipk])
        fabrics.append(Fabric(index: index, credentials: credentials, adminSubject: admin, committed: false))
        log.append("noc added \(index)")
        if let dnssd,
            let compressed = try? CASEKeySchedule.compressedFabricID(
                rootPublicKey: rootCertificate.publicKey, fabricID: fabricID)
        {
            let cfid = compressed.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let advertisement = OperationalAdvertisement(
                compressedFabricID: cfid, nodeID: nodeID, port: port,
                sessionParameters: MRPAdvertisement(idleInterval: 60, activeInterval: 60, activeThreshold: 4000))
            Task { _ = try? await dnssd.publish(advertisement) }
        }
        return nocResponse(0, index: index)
    }

    /// Fail-safe expiry: everything not committed goes.
    private func rollBack() {
        fabrics.removeAll { !$0.committed }
        pendingRoot = nil
        pendingKey = nil
        failSafeArmed = false
        breadcrumb = 0
        log.append("rolled back")
    }

    private func sign(_ elements: [UInt8], _ context: InteractionContext) throws(StatusIB) -> [UInt8] {
        guard let node,
            let challenge = node.assumeIsolated({ $0.secureSession(context.session)?.keys.attestationChallenge }),
            let signature = try? AttestationSignature.sign(
                elements: elements, attestationChallenge: challenge, dacKey: attestation.dacKey)
        else { throw StatusIB(.failure) }
        return signature.rawRepresentation
    }

    private func commissioningResponse(_ command: CommandID, _ code: UInt64) -> CommandResponse {
        CommandResponse(command: command, fields: .structure([.ctx(0, code), .ctx(1, .utf8(""))]))
    }

    private func nocResponse(_ code: UInt64, index: UInt8?) -> CommandResponse {
        var members = [TLVElement.ctx(0, code)]
        if let index { members.append(.ctx(1, UInt64(index))) }
        return CommandResponse(command: .OperationalCredentials.nocResponse, fields: .structure(members))
    }

    private func setOnOff(_ value: Bool, _ endpoint: EndpointID) {
        onOff = value
        changed(endpoint, .onOff, .OnOff.onOff)
    }

    private func changed(_ endpoint: EndpointID, _ cluster: ClusterID, _ attribute: AttributeID) {
        versions[cluster, default: 100] += 1
        observer?.attributesChanged([
            AttributeChange(
                endpoint: endpoint, cluster: cluster, attribute: attribute, dataVersion: versions[cluster, default: 100]
            )
        ])
    }
}

extension TLVElement {
    static func ctx(_ tag: UInt8, _ value: UInt64) -> TLVElement { TLVElement(tag: .context(tag), .unsigned(value)) }
    static func ctx(_ tag: UInt8, _ value: [UInt8]) -> TLVElement { TLVElement(tag: .context(tag), .bytes(value)) }
    static func ctx(_ tag: UInt8, _ value: TLVValue) -> TLVElement { TLVElement(tag: .context(tag), value) }
}
