import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterSecureChannel
import MatterTLV
import MatterTransport

/// OperationalCredentials (0x003E): attestation, CSR, trusted roots, NOCs, fabrics.
extension RootNode {
    enum NOCStatus {
        static let ok: UInt8 = 0
        static let invalidPublicKey: UInt8 = 1
        static let invalidNodeOpID: UInt8 = 2
        static let invalidNOC: UInt8 = 3
        static let missingCSR: UInt8 = 4
        static let tableFull: UInt8 = 5
        static let invalidAdminSubject: UInt8 = 6
        static let fabricConflict: UInt8 = 9
        static let labelConflict: UInt8 = 10
        static let invalidFabricIndex: UInt8 = 11
    }

    func readOperationalCredentials(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        let all = fabrics.values.sorted { $0.index < $1.index }
        let accessing = fabricIndex(of: context.session)
        switch attribute.rawValue {
        case 0x0000:  // NOCs, fabric-scoped and fabric-sensitive: only the accessing fabric's entry
            return .array(all.filter { !context.isFabricFiltered || $0.index == accessing }.compactMap { fabric in
                guard fabric.index == accessing else { return nil }
                return TLVElement(Field.structure([(1, .bytes(fabric.noc)), (2, fabric.icac.map { .bytes($0) } ?? .null),
                                                   (3, fabric.vvsc.map { .bytes($0) }),
                                                   (0xFE, Field.uint(fabric.index))]))
            })
        case 0x0001:  // Fabrics
            return .array(all.filter { !context.isFabricFiltered || $0.index == accessing }.map { fabric in
                TLVElement(Field.structure([
                    (1, .bytes(fabric.rootPublicKey)), (2, Field.uint(fabric.vendorID.rawValue)),
                    (3, .unsigned(fabric.fabricID.rawValue)), (4, .unsigned(fabric.nodeID.rawValue)),
                    (5, .utf8(fabric.label)), (6, fabric.vidVerificationStatement.map { .bytes($0) }),
                    (0xFE, Field.uint(fabric.index)),
                ]))
            })
        case 0x0002: return Field.uint(configuration.supportedFabrics)
        case 0x0003: return Field.uint(UInt8(committedFabrics.count))
        case 0x0004:
            var roots = all.map(\.rcac)
            if let pending = failSafe?.pendingRoot, !roots.contains(pending) { roots.append(pending) }
            return .array(roots.map { TLVElement(.bytes($0)) })
        case 0x0005: return Field.uint(accessing)
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    func invokeOperationalCredentials(_ command: CommandID, fields: TLVElement, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        typealias C = CommandID.OperationalCredentials
        switch command {
        case C.attestationRequest:
            let nonce: [UInt8] = try Field.required(fields, 0)
            guard nonce.count == 32 else { throw StatusIB(.invalidCommand) }
            let elements = configuration.attestation.attestationElements(nonce: nonce).tlvEncoded
            let signature = try sign(elements, session: context.session)
            return Field.response(C.attestationResponse, [(0, .bytes(elements)), (1, .bytes(signature))])
        case C.certificateChainRequest:
            let type: UInt8 = try Field.required(fields, 0)
            let certificate: [UInt8]
            switch type {
            case 1: certificate = configuration.attestation.dac.derEncoded
            case 2: certificate = configuration.attestation.pai.derEncoded
            default: throw StatusIB(.invalidCommand)
            }
            return Field.response(C.certificateChainResponse, [(0, .bytes(certificate))])
        case C.csrRequest:
            let nonce: [UInt8] = try Field.required(fields, 0)
            let forUpdate: Bool = try Field.optional(fields, 1) ?? false
            guard nonce.count == 32 else { throw StatusIB(.invalidCommand) }
            guard var context0 = failSafe else { throw StatusIB(.failsafeRequired) }
            if context0.addedFabric != nil, !forUpdate { throw StatusIB(.constraintError) }
            let key: P256PrivateKey
            let csr: CertificateSigningRequest
            do {
                key = try P256PrivateKey()
                csr = try CertificateSigningRequest.create(key: key)
            } catch {
                throw StatusIB(.failure)
            }
            context0.csrKey = key
            context0.csrSession = context.session
            failSafe = context0
            checkpoint?(.csrRequest)
            let elements = NOCSRElements(csr: csr.derEncoded, csrNonce: nonce).tlvEncoded
            let signature = try sign(elements, session: context.session)
            return Field.response(C.csrResponse, [(0, .bytes(elements)), (1, .bytes(signature))])
        case C.addTrustedRootCertificate:
            let rcac: [UInt8] = try Field.required(fields, 0)
            guard var context0 = failSafe else { throw StatusIB(.failsafeRequired) }
            guard context0.pendingRoot == nil, context0.addedFabric == nil else { throw StatusIB(.constraintError) }
            do {
                let certificate = try MatterCertificate(tlv: rcac)
                try OperationalCertificateValidator.validateRoot(certificate, at: .now)
            } catch {
                log.notice("AddTrustedRootCertificate refused: \(error)")
                throw StatusIB(.invalidCommand)
            }
            context0.pendingRoot = rcac
            failSafe = context0
            changed(.operationalCredentials, AttributeID(0x0004))
            checkpoint?(.addTrustedRootCertificate)
            return nil
        case C.addNOC:
            return Field.response(C.nocResponse, try addNOC(fields, context: context))
        case C.updateNOC:
            return Field.response(C.nocResponse, try updateNOC(fields, context: context))
        case C.updateFabricLabel:
            let label: String = try Field.required(fields, 0)
            guard label.utf8.count <= 32 else { throw StatusIB(.constraintError) }
            let index = fabricIndex(of: context.session)
            guard var fabric = fabrics[index] else {
                return Field.response(C.nocResponse, [(0, Field.uint(NOCStatus.invalidFabricIndex))])
            }
            if !label.isEmpty, fabrics.values.contains(where: { $0.index != index && $0.label == label }) {
                return Field.response(C.nocResponse, [(0, Field.uint(NOCStatus.labelConflict))])
            }
            fabric.label = label
            fabrics[index] = fabric
            if failSafe?.addedFabric != index { persist(fabrics: [index]) }
            changed(.operationalCredentials, AttributeID(0x0001))
            return Field.response(C.nocResponse, [(0, Field.uint(NOCStatus.ok)), (1, Field.uint(index))])
        case C.removeFabric:
            let index: UInt8 = try Field.required(fields, 0)
            guard fabrics[index] != nil else {
                return Field.response(C.nocResponse, [(0, Field.uint(NOCStatus.invalidFabricIndex))])
            }
            removeFabric(index)
            return Field.response(C.nocResponse, [(0, Field.uint(NOCStatus.ok)), (1, Field.uint(index))])
        case C.setVIDVerificationStatement:
            try setVIDVerificationStatement(fields, context: context)
            return nil
        case C.signVIDVerificationRequest:
            return try signVIDVerificationRequest(fields, context: context)
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }

    /// Signs `elements ‖ attestation challenge of the session` with the DAC key.
    private func sign(_ elements: [UInt8], session: SessionID) throws(StatusIB) -> [UInt8] {
        guard let challenge = node.assumeIsolated({ $0.secureSession(session)?.keys.attestationChallenge }) else {
            throw StatusIB(.failure)
        }
        do {
            return try AttestationSignature.sign(elements: elements, attestationChallenge: challenge,
                                                 dacKey: configuration.attestation.dacKey).rawRepresentation
        } catch {
            throw StatusIB(.failure)
        }
    }

    /// AddNOC (spec 11.18.6.8): a new fabric from the pending root and the CSR key.
    private func addNOC(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> [(UInt8, TLVValue?)] {
        let nocBytes: [UInt8] = try Field.required(fields, 0)
        let icacBytes: [UInt8]? = try Field.optional(fields, 1)
        let ipk: [UInt8] = try Field.required(fields, 2)
        let adminSubject: UInt64 = try Field.required(fields, 3)
        let adminVendor: UInt16 = try Field.required(fields, 4)
        guard var context0 = failSafe else { throw StatusIB(.failsafeRequired) }
        guard context0.addedFabric == nil, context0.updatedFabric == nil else { throw StatusIB(.constraintError) }
        guard ipk.count == 16 else { throw StatusIB(.constraintError) }
        func status(_ code: UInt8) -> [(UInt8, TLVValue?)] { [(0, Field.uint(code))] }
        guard let rcacBytes = context0.pendingRoot else { return status(NOCStatus.invalidNOC) }
        guard let key = context0.csrKey, context0.csrSession == context.session else { return status(NOCStatus.missingCSR) }
        let identity: OperationalIdentity
        let rcac: MatterCertificate
        do {
            rcac = try MatterCertificate(tlv: rcacBytes)
            let noc = try MatterCertificate(tlv: nocBytes)
            guard noc.publicKey == key.publicKey.x963Representation else { return status(NOCStatus.invalidPublicKey) }
            identity = try OperationalCertificateValidator.validateChain(
                noc: noc, icac: try icacBytes.map { b throws(CredentialsError) in try MatterCertificate(tlv: b) },
                rcac: rcac, at: .now)
        } catch {
            log.notice("AddNOC refused: \(error)")
            return status(NOCStatus.invalidNOC)
        }
        if fabrics.values.contains(where: { $0.rootPublicKey == rcac.publicKey && $0.fabricID == identity.fabricID }) {
            return status(NOCStatus.fabricConflict)
        }
        guard isValidAdminSubject(adminSubject) else { return status(NOCStatus.invalidAdminSubject) }
        guard let index = (1...UInt8(254)).first(where: { fabrics[$0] == nil }),
              fabrics.count < Int(configuration.supportedFabrics)
        else { return status(NOCStatus.tableFull) }
        let raw: [UInt8]
        do {
            raw = try key.rawRepresentation()
        } catch {
            throw StatusIB(.failure)
        }
        fabrics[index] = DeviceFabric(
            index: index, fabricID: identity.fabricID, nodeID: identity.nodeID, vendorID: VendorID(adminVendor), label: "",
            rcac: rcacBytes, icac: icacBytes, noc: nocBytes, operationalKey: raw, ipkEpochKey: ipk,
            rootPublicKey: rcac.publicKey)
        // The admin entry: {Administer, CASE, [CaseAdminSubject], targets null}.
        accessControl.replaceEntries(fabric: index, with: [
            AccessControlEntry(fabricIndex: index, privilege: .administer, authMode: .case, subjects: [adminSubject],
                               targets: []),
        ])
        context0.addedFabric = index
        // AddNOC re-associates the fail-safe with the new fabric (spec 11.10.7.2.1): from now on only
        // that fabric (its CASE sessions, or the PASE session bound to it) may re-arm, disarm or
        // complete it; any other session, including a second PASE session, gets BusyWithOtherAdmin.
        context0.fabricIndex = index
        context0.csrKey = nil
        failSafe = context0
        log.notice("AddNOC: fabric \(index) (fabric ID \(identity.fabricID), node ID \(identity.nodeID)) pending commit")
        onChange?(.fabricsChanged)
        changed(.operationalCredentials, nil)
        changed(.accessControl, nil)
        checkpoint?(.addNOC)
        return [(0, Field.uint(NOCStatus.ok)), (1, Field.uint(index))]
    }

    private func updateNOC(_ fields: TLVElement, context: InteractionContext) throws(StatusIB) -> [(UInt8, TLVValue?)] {
        let nocBytes: [UInt8] = try Field.required(fields, 0)
        let icacBytes: [UInt8]? = try Field.optional(fields, 1)
        guard var context0 = failSafe else { throw StatusIB(.failsafeRequired) }
        let index = fabricIndex(of: context.session)
        guard var fabric = fabrics[index], context.subject.authMode == .case else {
            return [(0, Field.uint(NOCStatus.invalidFabricIndex))]
        }
        guard let key = context0.csrKey else { return [(0, Field.uint(NOCStatus.missingCSR))] }
        do {
            let noc = try MatterCertificate(tlv: nocBytes)
            guard noc.publicKey == key.publicKey.x963Representation else { return [(0, Field.uint(NOCStatus.invalidPublicKey))] }
            let identity = try OperationalCertificateValidator.validateChain(
                noc: noc, icac: try icacBytes.map { b throws(CredentialsError) in try MatterCertificate(tlv: b) },
                rcac: try MatterCertificate(tlv: fabric.rcac), at: .now)
            guard identity.fabricID == fabric.fabricID else { return [(0, Field.uint(NOCStatus.invalidNOC))] }
            context0.updatedFabric = fabric
            fabric.noc = nocBytes
            fabric.icac = icacBytes
            fabric.nodeID = identity.nodeID
            fabric.operationalKey = try key.rawRepresentation()
        } catch {
            return [(0, Field.uint(NOCStatus.invalidNOC))]
        }
        fabrics[index] = fabric
        context0.csrKey = nil
        failSafe = context0
        caseResponder.resumption.removeFabric(index)
        onChange?(.fabricsChanged)
        changed(.operationalCredentials, nil)
        return [(0, Field.uint(NOCStatus.ok)), (1, Field.uint(index))]
    }

    /// RemoveFabric: the fabric, its ACL, its sessions, its records; the window reopens with no fabric left.
    func removeFabric(_ index: UInt8) {
        log.notice("removing fabric \(index)")
        if failSafe?.addedFabric == index { failSafe?.addedFabric = nil }
        let closing = sessions(of: index)
        forget(fabric: index)
        closeSessionsSoon(closing)
        onChange?(.fabricsChanged)
        changed(.operationalCredentials, nil)
        changed(.accessControl, nil)
        if committedFabrics.isEmpty, !window.isOpen { openBasicWindow(timeoutSeconds: nil) }
    }

    /// An operational node ID, or a CAT subject with a non-zero version.
    func isValidAdminSubject(_ subject: UInt64) -> Bool {
        if NodeID(subject).isOperational { return true }
        return subject >> 32 == 0xFFFF_FFFD && subject & 0xFFFF != 0
    }
}
