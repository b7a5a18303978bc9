import MatterClusters
import MatterCore
import MatterCredentials
import MatterCrypto
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterSecureChannel
import MatterStorage
import MatterTLV
import MatterTransport

/// The requests commissioning sends over PASE, and the checks of their answers.
extension Controller {
    // MARK: Commands over PASE

    func readCommissioningInfo(_ session: SessionID) async throws(ControllerError) -> CommissioningInfo {
        // The SDK's two reads (transcript §2): concrete commissioning values, wildcards over
        // TimeSynchronization and NetworkCommissioning, then ConnectMaxTimeSeconds and ICD values.
        let general = ClusterID.generalCommissioning
        let first = try await read(
            [
                AttributePathIB(.root(general, .GeneralCommissioning.supportsConcurrentConnection)),
                AttributePathIB(.root(general, .GeneralCommissioning.breadcrumb)),
                AttributePathIB(.root(general, .GeneralCommissioning.basicCommissioningInfo)),
                AttributePathIB(.root(general, .GeneralCommissioning.regulatoryConfig)),
                AttributePathIB(.root(general, .GeneralCommissioning.locationCapability)),
                AttributePathIB(.root(.basicInformation, .BasicInformation.vendorID)),
                AttributePathIB(.root(.basicInformation, .BasicInformation.productID)),
                AttributePathIB(endpoint: .root, cluster: .timeSynchronization),
                AttributePathIB(cluster: .networkCommissioning, attribute: .featureMap),
            ], session: session, fabricFiltered: false, context: "reading commissioning info")
        _ = try await read(
            [AttributePathIB(cluster: .networkCommissioning, attribute: .NetworkCommissioning.connectMaxTimeSeconds)]
                + Self.icdAttributes.map { AttributePathIB(.root(.icdManagement, $0)) },
            session: session, fabricFiltered: false, context: "reading commissioning info")
        func value(_ cluster: ClusterID, _ attribute: AttributeID, _ name: String) throws(ControllerError) -> TLVElement
        {
            let path = ConcreteAttributePath.root(cluster, attribute)
            guard let report = first.report(for: path) else {
                throw .protocolViolation("the device did not report \(name)")
            }
            switch report.result {
            case .success(let value): return TLVElement(value)
            case .failure(let status): throw .status(status, context: "reading \(name)")
            }
        }
        func number<T: FixedWidthInteger>(_ element: TLVElement?, _ name: String) throws(ControllerError) -> T {
            guard let raw = element?.uint, let value = T(exactly: raw) else {
                throw .protocolViolation("\(name) is not a valid \(T.self): \(element.map(\.description) ?? "absent")")
            }
            return value
        }
        let basic = try value(general, .GeneralCommissioning.basicCommissioningInfo, "BasicCommissioningInfo")
        return CommissioningInfo(
            breadcrumb: try number(try value(general, .GeneralCommissioning.breadcrumb, "Breadcrumb"), "Breadcrumb"),
            failSafeExpiryLengthSeconds: try number(basic[context: 0], "FailSafeExpiryLengthSeconds"),
            regulatoryConfig: try number(
                try value(general, .GeneralCommissioning.regulatoryConfig, "RegulatoryConfig"), "RegulatoryConfig"),
            locationCapability: try number(
                try value(general, .GeneralCommissioning.locationCapability, "LocationCapability"),
                "LocationCapability"),
            vendorID: VendorID(
                try number(try value(.basicInformation, .BasicInformation.vendorID, "VendorID"), "VendorID")),
            productID: ProductID(
                try number(try value(.basicInformation, .BasicInformation.productID, "ProductID"), "ProductID")))
    }

    /// ICD Management's UserActiveModeTriggerHint, …Instruction, IdleModeDuration, ActiveModeDuration
    /// and ActiveModeThreshold, as the SDK reads them (absent on our devices).
    static let icdAttributes = [6, 7, 0, 1, 2].map { AttributeID($0) }

    /// ArmFailSafe(expiry, breadcrumb); expiry 0 disarms.
    func armFailSafe(_ expiry: UInt16, breadcrumb: UInt64, session: SessionID) async throws(ControllerError) {
        let fields = try await invoke(
            .root(.generalCommissioning, .GeneralCommissioning.armFailSafe),
            fields: [.field(0, UInt64(expiry)), .field(1, breadcrumb)],
            expecting: .GeneralCommissioning.armFailSafeResponse, session: session, context: "ArmFailSafe")
        try Self.checkCommissioningErrorCode(fields, command: "ArmFailSafe")
    }

    func setRegulatoryConfig(_ value: UInt8, session: SessionID) async throws(ControllerError) {
        let fields = try await invoke(
            .root(.generalCommissioning, .GeneralCommissioning.setRegulatoryConfig),
            fields: [
                .field(0, UInt64(value)), .field(1, .utf8(configuration.countryCode)),
                .field(2, CommissioningStage.configureRegulatory.sdkBreadcrumb),
            ],
            expecting: .GeneralCommissioning.setRegulatoryConfigResponse, session: session,
            context: "SetRegulatoryConfig")
        try Self.checkCommissioningErrorCode(fields, command: "SetRegulatoryConfig")
    }

    func certificateChain(type: UInt64, name: String, session: SessionID) async throws(ControllerError)
        -> [UInt8]
    {
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.certificateChainRequest), fields: [.field(0, type)],
            expecting: .OperationalCredentials.certificateChainResponse, session: session,
            context: "CertificateChainRequest(\(name))")
        guard let certificate = fields[context: 0]?.bytes, !certificate.isEmpty,
            certificate.count <= AttestationCertificate.maximumByteCount
        else { throw .protocolViolation("CertificateChainResponse(\(name)) carries no valid certificate") }
        return certificate
    }

    func requestAttestation(nonce: [UInt8], session: SessionID) async throws(ControllerError)
        -> (elements: [UInt8], signature: [UInt8])
    {
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.attestationRequest), fields: [.field(0, nonce)],
            expecting: .OperationalCredentials.attestationResponse, session: session, context: "AttestationRequest")
        guard let elements = fields[context: 0]?.bytes, let signature = fields[context: 1]?.bytes else {
            throw .protocolViolation("AttestationResponse lacks its elements or signature")
        }
        return (elements, signature)
    }

    static func verifyAttestation(
        _ information: DeviceAttestationInformation, with verifier: DeviceAttestationVerifier
    ) throws(ControllerError) -> VerifiedDeviceAttestation {
        do {
            return try verifier.verify(information, at: .now)
        } catch {
            if case .attestation(let failure) = error { throw ControllerError(failure) }
            throw .attestation(code: 800, reason: "[800] \(error)")
        }
    }

    static func describe(_ verified: VerifiedDeviceAttestation) -> String {
        let vendor = verified.dac.vendorID.map { "VID \($0)" } ?? ""
        let product = verified.dac.productID.map { " PID \($0)" } ?? ""
        return "\(vendor)\(product), PAA \"\(verified.paa.commonName ?? "?")\""
    }

    /// CSRRequest, then the checks of its answer: nonce echo, DAC signature over the elements and the
    /// attestation challenge (unless the DAC is unknown because attestation was skipped), and the
    /// CSR's self-signature. Returns the device's new operational public key.
    func requestCSR(
        session: SessionID, challenge: [UInt8], dacKey: P256PublicKey?, verifier: DeviceAttestationVerifier
    ) async throws(ControllerError) -> P256PublicKey {
        let nonce = try Self.random(32)
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.csrRequest), fields: [.field(0, nonce)],
            expecting: .OperationalCredentials.csrResponse, session: session, context: "CSRRequest")
        guard let elements = fields[context: 0]?.bytes, let signature = fields[context: 1]?.bytes else {
            throw .protocolViolation("CSRResponse lacks its elements or signature")
        }
        do {
            if let dacKey {
                return try verifier.verifyNOCSRInformation(
                    nocsrElements: elements, attestationSignature: signature, attestationChallenge: challenge,
                    csrNonce: nonce, dacPublicKey: dacKey)
            }
            let parsed = try NOCSRElements(tlv: elements)
            guard parsed.csrNonce == nonce else { throw CredentialsError.nocsrNonceMismatch }
            return try CertificateSigningRequest(der: parsed.csr).publicKey
        } catch {
            throw .protocolViolation("CSRResponse rejected: \(error)")
        }
    }

    /// AddTrustedRootCertificate with our RCAC. A repeat the device refuses with CONSTRAINT_ERROR
    /// (one root per fail-safe) is fine when the device lists our root: the first request got through
    /// and only its answer was lost.
    func addTrustedRootCertificate(session: SessionID, isRetry: Bool) async throws(ControllerError) {
        let rcac = identity.credentials.rcac
        do throws(ControllerError) {
            _ = try await invoke(
                .root(.operationalCredentials, .OperationalCredentials.addTrustedRootCertificate),
                fields: [.field(0, rcac)], session: session, context: "AddTrustedRootCertificate")
        } catch {
            guard isRetry, case .status(let status, _) = error, status.status == .constraintError else {
                throw error
            }
            let path = ConcreteAttributePath.root(
                .operationalCredentials, .OperationalCredentials.trustedRootCertificates)
            let result = try await read(
                [AttributePathIB(path)], session: session, fabricFiltered: false,
                context: "reading TrustedRootCertificates")
            let roots = result.report(for: path)?.value?.members?.compactMap(\.bytes) ?? []
            guard roots.contains(rcac) else { throw error }
            log.info("AddTrustedRootCertificate: the first request had been accepted (its answer was lost)")
        }
    }

    /// AddNOC with the raw IPK epoch key, our node ID as CaseAdminSubject and our vendor ID; returns the
    /// fabric index the device reported (if it did). A repeat (`isRetry`) the device refuses with
    /// CONSTRAINT_ERROR (one AddNOC per fail-safe) is fine when the device lists our fabric with this
    /// node ID: the first request got through and only its answer was lost.
    func addNOC(
        _ noc: MatterCertificate, nodeID: NodeID, session: SessionID, isRetry: Bool
    ) async throws(ControllerError) -> UInt8? {
        let fields: TLVElement
        do throws(ControllerError) {
            fields = try await invoke(
                .root(.operationalCredentials, .OperationalCredentials.addNOC),
                fields: [
                    .field(0, noc.tlvEncoded), .field(2, identity.fabric.ipkEpochKey),
                    .field(3, controllerNodeID.rawValue), .field(4, UInt64(OperationalIdentity.adminVendorID.rawValue)),
                ],
                expecting: .OperationalCredentials.nocResponse, session: session, context: "AddNOC")
        } catch {
            guard isRetry, case .status(let status, _) = error, status.status == .constraintError,
                let index = try await ourFabricIndex(nodeID, session: session)
            else { throw error }
            log.info("AddNOC: the first request had been accepted (its answer was lost); fabric index \(index)")
            return index
        }
        try Self.checkNOCStatus(fields, command: "AddNOC")
        return fields[context: 1]?.uint.flatMap { UInt8(exactly: $0) }
    }

    // MARK: Operational

    func findOperational(
        _ nodeID: NodeID, target: CommissionableTarget, pase: PASESession
    ) async throws(ControllerError) -> [(address: UDPAddress, mrp: MRPParameters)] {
        if target.isDirect { return [(pase.address, target.mrp)] }
        guard let browser = try await browser() else { return [(pase.address, target.mrp)] }
        return try await OperationalLookup.resolve(
            browser, compressedFabricID: identity.compressedFabricID, nodeID: nodeID,
            timeout: configuration.discoveryTimeout)
    }

    /// Starts looking up the node's operational record in the background, when CASE is to be tried
    /// at the commissioning address meanwhile (``ControllerConfiguration/caseAtCommissioningAddress``);
    /// nil when the address was given (it is the operational one) or there is no DNS-SD.
    func startOperationalLookup(
        _ nodeID: NodeID, target: CommissionableTarget
    ) async throws(ControllerError) -> OperationalLookup? {
        guard configuration.caseAtCommissioningAddress, !target.isDirect, let browser = try await browser() else {
            return nil
        }
        return OperationalLookup(
            browser: browser, compressedFabricID: identity.compressedFabricID, nodeID: nodeID,
            timeout: configuration.discoveryTimeout, clock: configuration.clock, log: log)
    }

    func readDeviceTypes(_ session: SessionID) async -> DeviceTypeReading {
        do {
            let result = try await retrying("reading device types") { _ throws(ControllerError) in
                try await read(
                    [AttributePathIB(cluster: .descriptor, attribute: .Descriptor.deviceTypeList)], session: session,
                    context: "reading device types")
            }
            return DeviceTypeReading(list: Self.deviceTypes(in: result), failure: nil)
        } catch {
            return DeviceTypeReading(list: [], failure: error.description)
        }
    }

    /// The DeviceTypeList entries of every endpoint in a read result.
    static func deviceTypes(in result: ReadResult) -> [NodeDeviceType] {
        var list: [NodeDeviceType] = []
        for report in result.attributes
        where report.path.cluster == .descriptor && report.path.attribute == .Descriptor.deviceTypeList {
            for entry in report.value?.members ?? [] {
                guard let type = entry[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
                    let revision = entry[context: 1]?.uint.flatMap(UInt16.init(exactly:))
                else { continue }
                list.append(
                    NodeDeviceType(endpoint: report.path.endpoint, deviceType: DeviceTypeID(type), revision: revision))
            }
        }
        return list.sorted { ($0.endpoint, $0.deviceType) < ($1.endpoint, $1.deviceType) }
    }

    // MARK: Checks

    static let commissioningErrorNames = [
        0: "OK", 1: "ValueOutsideRange", 2: "InvalidAuthentication", 3: "NoFailSafe", 4: "BusyWithOtherAdmin",
    ]

    static func checkCommissioningErrorCode(_ fields: TLVElement, command: String) throws(ControllerError) {
        guard let code = fields[context: 0]?.uint else {
            throw .protocolViolation("\(command) response has no ErrorCode")
        }
        guard code == 0 else {
            let name = commissioningErrorNames[Int(clamping: code)] ?? "error"
            let debug = fields[context: 1]?.string.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            throw .rejected("the device refused \(command): \(name) (\(code))\(debug)")
        }
    }

    static let nocStatusNames = [
        0: "OK", 1: "InvalidPublicKey", 2: "InvalidNodeOpId", 3: "InvalidNOC", 4: "MissingCsr", 5: "TableFull",
        6: "InvalidAdminSubject", 9: "FabricConflict", 10: "LabelConflict", 11: "InvalidFabricIndex",
    ]

    static func checkNOCStatus(_ fields: TLVElement, command: String) throws(ControllerError) {
        guard let code = fields[context: 0]?.uint else {
            throw .protocolViolation("\(command): NOCResponse has no StatusCode")
        }
        guard code == 0 else {
            let name = nocStatusNames[Int(clamping: code)] ?? "error"
            let debug = fields[context: 2]?.string.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            throw .rejected("the device refused \(command): \(name) (\(code))\(debug)")
        }
    }

    static func regulatoryName(_ value: UInt8) -> String {
        switch value {
        case 0: "indoor"
        case 1: "outdoor"
        case 2: "indoor/outdoor"
        default: "regulatory \(value)"
        }
    }

    static func random(_ count: Int) throws(ControllerError) -> [UInt8] {
        do { return try SecureRandom.bytes(count: count) } catch { throw .internalFailure("random bytes: \(error)") }
    }
}
