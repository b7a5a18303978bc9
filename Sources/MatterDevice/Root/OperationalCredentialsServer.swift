import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV
import MatterTransport

/// OperationalCredentials 0x003E on endpoint 0: attestation, CSR, trusted roots, NOCs, fabrics, over
/// the node's ``FabricTable`` and ``FailSafe`` (what AddNOC adds is pending until CommissioningComplete).
final class OperationalCredentialsServer: RootClusterServer {
    typealias A = AttributeID.OperationalCredentials
    typealias C = CommandID.OperationalCredentials

    /// NodeOperationalCertStatusEnum.
    enum NOCStatus: UInt8 {
        case ok = 0
        case invalidPublicKey = 1
        case invalidNodeOpID = 2
        case invalidNOC = 3
        case missingCSR = 4
        case tableFull = 5
        case invalidAdminSubject = 6
        case fabricConflict = 9
        case labelConflict = 10
        case invalidFabricIndex = 11
    }

    let fabrics: FabricTable
    let failSafe: FailSafe
    let windows: CommissioningWindowManager
    let sessions: NodeSessions
    let closer: SessionCloser
    let attestation: DeviceAttestationCredentials
    let supportedFabrics: UInt8
    let checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?

    init(
        fabrics: FabricTable, failSafe: FailSafe, windows: CommissioningWindowManager, sessions: NodeSessions,
        closer: SessionCloser, attestation: DeviceAttestationCredentials, supportedFabrics: UInt8,
        checkpoint: (@Sendable (DeviceCheckpoint) -> Void)?
    ) {
        self.fabrics = fabrics
        self.failSafe = failSafe
        self.windows = windows
        self.sessions = sessions
        self.closer = closer
        self.attestation = attestation
        self.supportedFabrics = supportedFabrics
        self.checkpoint = checkpoint
        super.init(
            .operationalCredentials,
            attributes: [
                A.nocs, A.fabrics, A.supportedFabrics, A.commissionedFabrics, A.trustedRootCertificates,
                A.currentFabricIndex,
            ])
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        let all = fabrics.all
        let accessing = context.subject.fabricIndex
        let shown = all.filter { !context.isFabricFiltered || $0.index == accessing }
        switch attribute {
        case A.nocs:  // fabric-scoped and fabric-sensitive: only the accessing fabric's entry
            return .array(
                shown.compactMap { fabric in
                    guard fabric.index == accessing else { return nil }
                    return TLVElement(
                        Field.structure([
                            (1, .bytes(fabric.noc)), (2, fabric.icac.map { .bytes($0) } ?? .null),
                            (3, fabric.vvsc.map { .bytes($0) }), (0xFE, Field.uint(fabric.index)),
                        ]))
                })
        case A.fabrics:
            return .array(
                shown.map { fabric in
                    TLVElement(
                        Field.structure([
                            (1, .bytes(fabric.rootPublicKey)), (2, Field.uint(fabric.vendorID.rawValue)),
                            (3, .unsigned(fabric.fabricID.rawValue)), (4, .unsigned(fabric.nodeID.rawValue)),
                            (5, .utf8(fabric.label)), (6, fabric.vidVerificationStatement.map { .bytes($0) }),
                            (0xFE, Field.uint(fabric.index)),
                        ]))
                })
        case A.supportedFabrics: return Field.uint(supportedFabrics)
        case A.commissionedFabrics: return Field.uint(UInt8(fabrics.committed.count))
        case A.trustedRootCertificates:
            var roots = all.map(\.rcac)
            if let pending = failSafe.context?.pendingRoot, !roots.contains(pending) { roots.append(pending) }
            return .array(roots.map { TLVElement(.bytes($0)) })
        case A.currentFabricIndex: return Field.uint(accessing)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        let fields = fields.element
        switch command {
        case C.attestationRequest: return try attestationRequest(fields, context: context)
        case C.certificateChainRequest: return try certificateChainRequest(fields)
        case C.csrRequest: return try csrRequest(fields, context: context)
        case C.addTrustedRootCertificate:
            try addTrustedRootCertificate(fields)
            return nil
        case C.addNOC: return Field.response(C.nocResponse, try addNOC(fields, context: context))
        case C.updateNOC: return Field.response(C.nocResponse, try updateNOC(fields, context: context))
        case C.updateFabricLabel: return Field.response(C.nocResponse, try updateFabricLabel(fields, context: context))
        case C.removeFabric: return Field.response(C.nocResponse, try removeFabric(fields))
        case C.setVIDVerificationStatement:
            try setVIDVerificationStatement(fields, context: context)
            return nil
        case C.signVIDVerificationRequest: return try signVIDVerificationRequest(fields, context: context)
        default: throw StatusIB(.unsupportedCommand)
        }
    }

    /// The NOCResponse fields of `status` (with the fabric index on success).
    private func nocResponse(_ status: NOCStatus, index: UInt8? = nil) -> [(UInt8, TLVValue?)] {
        [(0, Field.uint(status.rawValue)), (1, index.map { Field.uint($0) })]
    }

    // MARK: Attestation and CSR

    private func attestationRequest(_ fields: TLVElement, context: InteractionContext) throws(StatusIB)
        -> CommandResponse
    {
        let nonce: [UInt8] = try Field.required(fields, 0)
        guard nonce.count == 32 else { throw StatusIB(.invalidCommand) }
        let elements = attestation.attestationElements(nonce: nonce).tlvEncoded
        let signature = try sign(elements, session: context.session)
        return Field.response(C.attestationResponse, [(0, .bytes(elements)), (1, .bytes(signature))])
    }

    private func certificateChainRequest(_ fields: TLVElement) throws(StatusIB) -> CommandResponse {
        let type: UInt8 = try Field.required(fields, 0)
        let certificate: [UInt8]
        switch type {
        case 1: certificate = attestation.dac.derEncoded
        case 2: certificate = attestation.pai.derEncoded
        default: throw StatusIB(.invalidCommand)
        }
        return Field.response(C.certificateChainResponse, [(0, .bytes(certificate))])
    }

    private func csrRequest(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> CommandResponse {
        let nonce: [UInt8] = try Field.required(fields, 0)
        let forUpdate: Bool = try Field.optional(fields, 1) ?? false
        guard nonce.count == 32 else { throw StatusIB(.invalidCommand) }
        guard var armed = failSafe.context else { throw StatusIB(.failsafeRequired) }
        if failSafe.addedFabric != nil, !forUpdate { throw StatusIB(.constraintError) }
        let key: P256PrivateKey
        let csr: CertificateSigningRequest
        do {
            key = try P256PrivateKey()
            csr = try CertificateSigningRequest.create(key: key)
        } catch {
            throw StatusIB(.failure)
        }
        armed.csrKey = key
        armed.csrSession = context.session
        failSafe.context = armed
        checkpoint?(.csrRequest)
        let elements = NOCSRElements(csr: csr.derEncoded, csrNonce: nonce).tlvEncoded
        let signature = try sign(elements, session: context.session)
        return Field.response(C.csrResponse, [(0, .bytes(elements)), (1, .bytes(signature))])
    }

    /// Signs `elements ‖ attestation challenge of the session` with the DAC key.
    private func sign(_ elements: [UInt8], session: SessionID) throws(StatusIB) -> [UInt8] {
        guard let challenge = sessions.attestationChallenge(session) else { throw StatusIB(.failure) }
        do {
            return try AttestationSignature.sign(
                elements: elements, attestationChallenge: challenge, dacKey: attestation.dacKey
            ).rawRepresentation
        } catch {
            throw StatusIB(.failure)
        }
    }

    // MARK: Trusted roots and NOCs

    private func addTrustedRootCertificate(_ fields: TLVElement) throws(StatusIB) {
        let rcac: [UInt8] = try Field.required(fields, 0)
        guard var armed = failSafe.context else { throw StatusIB(.failsafeRequired) }
        guard armed.pendingRoot == nil, failSafe.addedFabric == nil else { throw StatusIB(.constraintError) }
        do {
            let certificate = try MatterCertificate(tlv: rcac)
            try OperationalCertificateValidator.validateRoot(certificate, at: .now)
        } catch {
            logger.notice("AddTrustedRootCertificate refused: \(error)")
            throw StatusIB(.invalidCommand)
        }
        armed.pendingRoot = rcac
        failSafe.context = armed
        attributeChanged(A.trustedRootCertificates)
        checkpoint?(.addTrustedRootCertificate)
    }

    /// AddNOC (spec 11.18.6.8): a new fabric from the pending root and the CSR key.
    private func addNOC(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> [(UInt8, TLVValue?)] {
        let nocBytes: [UInt8] = try Field.required(fields, 0)
        let icacBytes: [UInt8]? = try Field.optional(fields, 1)
        let ipk: [UInt8] = try Field.required(fields, 2)
        let adminSubject: UInt64 = try Field.required(fields, 3)
        let adminVendor: UInt16 = try Field.required(fields, 4)
        guard let armed = failSafe.context else { throw StatusIB(.failsafeRequired) }
        guard failSafe.addedFabric == nil, armed.updatedFabric == nil else { throw StatusIB(.constraintError) }
        guard ipk.count == 16 else { throw StatusIB(.constraintError) }
        guard let rcacBytes = armed.pendingRoot else { return nocResponse(.invalidNOC) }
        guard let key = armed.csrKey, armed.csrSession == context.session else { return nocResponse(.missingCSR) }
        let identity: OperationalIdentity
        let rcac: MatterCertificate
        do {
            rcac = try MatterCertificate(tlv: rcacBytes)
            let noc = try MatterCertificate(tlv: nocBytes)
            guard noc.publicKey == key.publicKey.x963Representation else { return nocResponse(.invalidPublicKey) }
            identity = try OperationalCertificateValidator.validateChain(
                noc: noc, icac: try icacBytes.map { b throws(CredentialsError) in try MatterCertificate(tlv: b) },
                rcac: rcac, at: .now)
        } catch {
            logger.notice("AddNOC refused: \(error)")
            return nocResponse(.invalidNOC)
        }
        if fabrics.all.contains(where: { $0.rootPublicKey == rcac.publicKey && $0.fabricID == identity.fabricID }) {
            return nocResponse(.fabricConflict)
        }
        guard Self.isValidAdminSubject(adminSubject) else { return nocResponse(.invalidAdminSubject) }
        guard let index = fabrics.freeIndex(capacity: supportedFabrics) else { return nocResponse(.tableFull) }
        let raw: [UInt8]
        do {
            raw = try key.rawRepresentation()
        } catch {
            throw StatusIB(.failure)
        }
        fabrics[index] = DeviceFabric(
            index: index, fabricID: identity.fabricID, nodeID: identity.nodeID, vendorID: VendorID(adminVendor),
            label: "", rcac: rcacBytes, icac: icacBytes, noc: nocBytes, operationalKey: raw, ipkEpochKey: ipk,
            rootPublicKey: rcac.publicKey)
        // The admin entry: {Administer, CASE, [CaseAdminSubject], targets null}.
        fabrics.accessControl.replaceEntries(
            fabric: index,
            with: [
                AccessControlEntry(
                    fabricIndex: index, privilege: .administer, authMode: .case, subjects: [adminSubject],
                    targets: [])
            ])
        // From now on only the new fabric (its CASE sessions, or the PASE session bound to it) may
        // re-arm, disarm or complete the fail-safe; any other session gets BusyWithOtherAdmin.
        failSafe.bind(addedFabric: index)
        logger.notice(
            "AddNOC: fabric \(index) (fabric ID \(identity.fabricID), node ID \(identity.nodeID)) pending commit")
        fabrics.onChange?()
        allAttributesChanged()
        sibling(AccessControlServer.self)?.allAttributesChanged()
        sibling(GroupKeyManagementServer.self)?.allAttributesChanged()
        checkpoint?(.addNOC)
        return nocResponse(.ok, index: index)
    }

    private func updateNOC(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> [(UInt8, TLVValue?)] {
        let nocBytes: [UInt8] = try Field.required(fields, 0)
        let icacBytes: [UInt8]? = try Field.optional(fields, 1)
        guard var armed = failSafe.context else { throw StatusIB(.failsafeRequired) }
        let index = context.subject.fabricIndex
        guard var fabric = fabrics[index], context.subject.authMode == .case else {
            return nocResponse(.invalidFabricIndex)
        }
        guard let key = armed.csrKey else { return nocResponse(.missingCSR) }
        do {
            let noc = try MatterCertificate(tlv: nocBytes)
            guard noc.publicKey == key.publicKey.x963Representation else { return nocResponse(.invalidPublicKey) }
            let identity = try OperationalCertificateValidator.validateChain(
                noc: noc, icac: try icacBytes.map { b throws(CredentialsError) in try MatterCertificate(tlv: b) },
                rcac: try MatterCertificate(tlv: fabric.rcac), at: .now)
            guard identity.fabricID == fabric.fabricID else { return nocResponse(.invalidNOC) }
            armed.updatedFabric = fabric
            fabric.noc = nocBytes
            fabric.icac = icacBytes
            fabric.nodeID = identity.nodeID
            fabric.operationalKey = try key.rawRepresentation()
        } catch {
            return nocResponse(.invalidNOC)
        }
        fabrics[index] = fabric
        armed.csrKey = nil
        failSafe.context = armed
        fabrics.resumption.removeFabric(index)
        fabrics.onChange?()
        allAttributesChanged()
        return nocResponse(.ok, index: index)
    }

    // MARK: Fabrics

    private func updateFabricLabel(_ fields: TLVElement, context: InteractionContext) throws(StatusIB)
        -> [(UInt8, TLVValue?)]
    {
        let label: String = try Field.required(fields, 0)
        guard label.utf8.count <= 32 else { throw StatusIB(.constraintError) }
        let index = context.subject.fabricIndex
        guard var fabric = fabrics[index] else { return nocResponse(.invalidFabricIndex) }
        if !label.isEmpty, fabrics.all.contains(where: { $0.index != index && $0.label == label }) {
            return nocResponse(.labelConflict)
        }
        fabric.label = label
        fabrics[index] = fabric
        if failSafe.addedFabric != index { fabrics.persist(fabrics: [index]) }
        attributeChanged(A.fabrics)
        return nocResponse(.ok, index: index)
    }

    private func removeFabric(_ fields: TLVElement) throws(StatusIB) -> [(UInt8, TLVValue?)] {
        let index: UInt8 = try Field.required(fields, 0)
        guard fabrics[index] != nil else { return nocResponse(.invalidFabricIndex) }
        removeFabric(index)
        return nocResponse(.ok, index: index)
    }

    /// RemoveFabric: the fabric, its ACL, group keys, sessions and records; the basic window reopens
    /// when no fabric is left. (Hook point for a Leave event: after `fabrics.remove`.)
    func removeFabric(_ index: UInt8) {
        logger.notice("removing fabric \(index)")
        let closing = sessions.sessions(ofFabric: index)
        fabrics.remove(index)
        closer.closeSoon(closing)
        fabrics.onChange?()
        allAttributesChanged()
        sibling(AccessControlServer.self)?.allAttributesChanged()
        sibling(GroupKeyManagementServer.self)?.allAttributesChanged()
        if fabrics.committed.isEmpty, !windows.isOpen { windows.openBasic(timeoutSeconds: nil) }
    }

    /// An operational node ID, or a CAT subject with a non-zero version.
    static func isValidAdminSubject(_ subject: UInt64) -> Bool {
        if NodeID(subject).isOperational { return true }
        return subject >> 32 == 0xFFFF_FFFD && subject & 0xFFFF != 0
    }
}
