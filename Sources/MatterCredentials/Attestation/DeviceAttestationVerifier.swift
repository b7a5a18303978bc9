package import MatterCore
package import MatterCrypto

/// What a commissioner received and knows for device attestation.
package struct DeviceAttestationInformation: Sendable {
    /// AttestationResponse's AttestationElements (TLV).
    package var attestationElements: [UInt8]
    /// AttestationResponse's AttestationSignature (64-byte r‖s).
    package var attestationSignature: [UInt8]
    /// The PASE session's attestation challenge.
    package var attestationChallenge: [UInt8]
    /// The nonce the commissioner sent in AttestationRequest.
    package var attestationNonce: [UInt8]
    /// CertificateChainResponse(DAC), DER.
    package var dacCertificate: [UInt8]
    /// CertificateChainResponse(PAI), DER.
    package var paiCertificate: [UInt8]
    /// BasicInformation VendorID.
    package var vendorID: VendorID
    /// BasicInformation ProductID.
    package var productID: ProductID

    package init(
        attestationElements: [UInt8], attestationSignature: [UInt8], attestationChallenge: [UInt8],
        attestationNonce: [UInt8], dacCertificate: [UInt8], paiCertificate: [UInt8], vendorID: VendorID,
        productID: ProductID
    ) {
        self.attestationElements = attestationElements
        self.attestationSignature = attestationSignature
        self.attestationChallenge = attestationChallenge
        self.attestationNonce = attestationNonce
        self.dacCertificate = dacCertificate
        self.paiCertificate = paiCertificate
        self.vendorID = vendorID
        self.productID = productID
    }
}

/// What successful attestation established.
package struct VerifiedDeviceAttestation: Sendable {
    /// The DAC public key: verifies the CSRResponse next (``DeviceAttestationVerifier/verifyNOCSRInformation``).
    package let dacPublicKey: P256PublicKey
    package let dac: AttestationCertificate
    package let pai: AttestationCertificate
    package let paa: AttestationCertificate
    package let certificationDeclaration: CertificationDeclaration
    package let attestationElements: AttestationElements
}

/// The commissioner's device attestation check, following the SDK's `DefaultDACVerifier` order and result codes
/// (each failure throws ``CredentialsError/attestation(_:)`` with its ``DeviceAttestationFailure``):
///
/// 1. inputs present, elements ≤ 900 bytes [800]; PAI present [207]
/// 2. PAI and DAC parse and follow the attestation profile [203, 303]
/// 3. PAI VID present and equal to the DAC VID [305]; DAC PID present, PAI PID (if any) equal [306]
/// 4. attestation signature: 64 bytes [503], verifies over elements ‖ challenge with the DAC key [500]
/// 5. PAA found by the PAI's AKID [101], in profile without a PID [105], its VID (if any) = PAI VID [205]
/// 6. DAC valid now [300] (skipped without a clock); PAI and PAA valid at the DAC's notBefore [200, 102]; the
///    chain verifies with OpenSSL (`X509_V_FLAG_X509_STRICT`, time = DAC notBefore) [301]
/// 7. elements parse [501]; nonce matches [502]
/// 8. CD envelope parses [600]; signer key known [601]; signature verifies [602]
/// 9. CD content parses [603]; vendor_id = BasicInformation VID [604]; BasicInformation PID in
///    product_id_array [605]; DAC/PAI VID and PID agree with the CD (or its dac_origin fields) [604, 605];
///    authorized_paa_list (if any) holds the PAA SKID [606]
package struct DeviceAttestationVerifier: Sendable {
    package let trustStore: PAATrustStore
    package let certificationDeclarationKeys: [CertificationDeclarationSigningKey]

    /// A verifier trusting `trustStore`'s PAAs and the given CD signing keys (by default the SDK test key, as
    /// SDK controllers do for development devices).
    package init(
        trustStore: PAATrustStore, certificationDeclarationKeys: [CertificationDeclarationSigningKey]? = nil
    ) throws(CredentialsError) {
        self.trustStore = trustStore
        if let certificationDeclarationKeys {
            self.certificationDeclarationKeys = certificationDeclarationKeys
        } else {
            self.certificationDeclarationKeys = [try CertificationDeclarationSigningKey.sdkTest()]
        }
    }

    /// Runs every check in order; the first failure throws.
    package func verify(
        _ info: DeviceAttestationInformation, at time: CertificateValidationTime
    ) throws(CredentialsError) -> VerifiedDeviceAttestation {
        func fail(_ failure: DeviceAttestationFailure) -> CredentialsError { .attestation(failure) }

        // 1. Inputs.
        guard !info.attestationElements.isEmpty, !info.attestationChallenge.isEmpty,
            !info.attestationSignature.isEmpty, !info.attestationNonce.isEmpty, !info.dacCertificate.isEmpty
        else { throw fail(.invalidArgument("an attestation input is empty")) }
        guard info.attestationElements.count <= AttestationElements.maximumByteCount else {
            throw fail(.invalidArgument("attestation elements are \(info.attestationElements.count) bytes (limit 900)"))
        }
        guard !info.paiCertificate.isEmpty else { throw fail(.paiMissing) }

        // 2. Formats.
        let pai: AttestationCertificate
        do { pai = try AttestationCertificate(der: info.paiCertificate) } catch {
            throw fail(.paiFormatInvalid("\(error)"))
        }
        if let violation = pai.profileViolation(as: .pai) { throw fail(.paiFormatInvalid(violation)) }
        let dac: AttestationCertificate
        do { dac = try AttestationCertificate(der: info.dacCertificate) } catch {
            throw fail(.dacFormatInvalid("\(error)"))
        }
        if let violation = dac.profileViolation(as: .dac) { throw fail(.dacFormatInvalid(violation)) }

        // 3. VID/PID of DAC and PAI.
        guard let dacVendorID = dac.vendorID else { throw fail(.dacFormatInvalid("the DAC has no Vendor ID")) }
        guard let paiVendorID = pai.vendorID, paiVendorID == dacVendorID else {
            throw fail(.dacVendorIDMismatch(dac: dacVendorID, pai: pai.vendorID))
        }
        guard let dacProductID = dac.productID else { throw fail(.dacProductIDMismatch(dac: nil, pai: pai.productID)) }
        if let paiProductID = pai.productID, paiProductID != dacProductID {
            throw fail(.dacProductIDMismatch(dac: dacProductID, pai: paiProductID))
        }

        // 4. Attestation signature.
        guard let signature = try? P256Signature(rawRepresentation: info.attestationSignature) else {
            throw fail(.attestationSignatureInvalidFormat)
        }
        guard
            AttestationSignature.isValid(
                signature, elements: info.attestationElements, attestationChallenge: info.attestationChallenge,
                dacPublicKey: dac.publicKey)
        else { throw fail(.attestationSignatureInvalid) }

        // 5. PAA.
        guard let akid = pai.authorityKeyIdentifier else { throw fail(.paiFormatInvalid("no authority key ID")) }
        guard let paa = trustStore.certificate(subjectKeyIdentifier: akid) else {
            throw fail(.paaNotFound(authorityKeyIdentifier: akid))
        }
        if let violation = paa.profileViolation(as: .paa) { throw fail(.paaFormatInvalid(violation)) }
        if let paaVendorID = paa.vendorID, paaVendorID != paiVendorID {
            throw fail(.paiVendorIDMismatch(paa: paaVendorID, pai: paiVendorID))
        }
        guard paa.productID == nil else { throw fail(.paaFormatInvalid("a PAA must not carry a Product ID")) }

        // 6. Validity and chain.
        if case .unixSeconds(let now) = time, now < dac.notBefore || now > dac.notAfter {
            throw fail(.dacExpired)
        }
        guard pai.notBefore <= dac.notBefore, dac.notBefore <= pai.notAfter else { throw fail(.paiExpired) }
        guard paa.notBefore <= dac.notBefore, dac.notBefore <= paa.notAfter else { throw fail(.paaExpired) }
        if let reason = OpenSSLChainVerifier.verify(
            leaf: dac.derEncoded, intermediate: pai.derEncoded, root: paa.derEncoded, atUnixTime: dac.notBefore)
        {
            throw fail(.dacSignatureInvalid(reason))
        }

        // 7. Elements and nonce.
        let elements: AttestationElements
        do { elements = try AttestationElements(tlv: info.attestationElements) } catch {
            throw fail(.attestationElementsMalformed("\(error)"))
        }
        guard elements.attestationNonce == info.attestationNonce else { throw fail(.attestationNonceMismatch) }

        // 8. CD signature.
        let envelope: SignedCertificationDeclaration
        do { envelope = try SignedCertificationDeclaration(cms: elements.certificationDeclaration) } catch {
            throw fail(.certificationDeclarationNoKeyID("\(error)"))
        }
        guard
            let signer = certificationDeclarationKeys.first(where: { $0.keyIdentifier == envelope.signerKeyIdentifier })
        else { throw fail(.certificationDeclarationNoCertificateFound(keyIdentifier: envelope.signerKeyIdentifier)) }
        guard envelope.isSignatureValid(publicKey: signer.publicKey) else {
            throw fail(.certificationDeclarationInvalidSignature)
        }

        // 9. CD payload.
        let declaration: CertificationDeclaration
        do { declaration = try envelope.declaration() } catch {
            throw fail(.certificationDeclarationInvalidFormat("\(error)"))
        }
        try Self.checkPayload(
            declaration, info: info, dacVendorID: dacVendorID, dacProductID: dacProductID, paiVendorID: paiVendorID,
            paiProductID: pai.productID, paaKeyIdentifier: paa.subjectKeyIdentifier ?? [])
        return VerifiedDeviceAttestation(
            dacPublicKey: dac.publicKey, dac: dac, pai: pai, paa: paa, certificationDeclaration: declaration,
            attestationElements: elements)
    }

    /// Checks a CSRResponse: the NOCSR elements parse, carry the CSR nonce sent, the signature over
    /// elements ‖ challenge verifies with the DAC key, and the CSR's self-signature verifies. Returns the CSR's key.
    package func verifyNOCSRInformation(
        nocsrElements: [UInt8], attestationSignature: [UInt8], attestationChallenge: [UInt8], csrNonce: [UInt8],
        dacPublicKey: P256PublicKey
    ) throws(CredentialsError) -> P256PublicKey {
        let elements = try NOCSRElements(tlv: nocsrElements)
        guard elements.csrNonce == csrNonce else { throw .nocsrNonceMismatch }
        guard let signature = try? P256Signature(rawRepresentation: attestationSignature),
            AttestationSignature.isValid(
                signature, elements: nocsrElements, attestationChallenge: attestationChallenge,
                dacPublicKey: dacPublicKey)
        else { throw .nocsrSignatureInvalid }
        return try CertificateSigningRequest(der: elements.csr).publicKey
    }

    private static func checkPayload(
        _ cd: CertificationDeclaration, info: DeviceAttestationInformation, dacVendorID: VendorID,
        dacProductID: ProductID, paiVendorID: VendorID, paiProductID: ProductID?, paaKeyIdentifier: [UInt8]
    ) throws(CredentialsError) {
        func vendor(_ reason: String) -> CredentialsError {
            .attestation(.certificationDeclarationInvalidVendorID(reason))
        }
        func product(_ reason: String) -> CredentialsError {
            .attestation(.certificationDeclarationInvalidProductID(reason))
        }
        guard cd.vendorID == info.vendorID else {
            throw vendor("CD vendor_id \(cd.vendorID) ≠ BasicInformation VendorID \(info.vendorID)")
        }
        guard cd.productIDs.contains(info.productID) else {
            throw product("BasicInformation ProductID \(info.productID) is not in the CD's product_id_array")
        }
        if let originVendorID = cd.dacOriginVendorID, let originProductID = cd.dacOriginProductID {
            guard dacVendorID == originVendorID else { throw vendor("DAC VID \(dacVendorID) ≠ dac_origin_vendor_id") }
            guard paiVendorID == originVendorID else { throw vendor("PAI VID \(paiVendorID) ≠ dac_origin_vendor_id") }
            guard dacProductID == originProductID else {
                throw product("DAC PID \(dacProductID) ≠ dac_origin_product_id")
            }
            if let paiProductID, paiProductID != originProductID {
                throw product("PAI PID \(paiProductID) ≠ dac_origin_product_id")
            }
        } else {
            guard dacVendorID == cd.vendorID else {
                throw vendor("DAC VID \(dacVendorID) ≠ CD vendor_id \(cd.vendorID)")
            }
            guard paiVendorID == cd.vendorID else {
                throw vendor("PAI VID \(paiVendorID) ≠ CD vendor_id \(cd.vendorID)")
            }
            guard cd.productIDs.contains(dacProductID) else {
                throw product("DAC PID \(dacProductID) is not in the CD's product_id_array")
            }
            if let paiProductID, !cd.productIDs.contains(paiProductID) {
                throw product("PAI PID \(paiProductID) is not in the CD's product_id_array")
            }
        }
        if let authorized = cd.authorizedPAAList, !authorized.contains(paaKeyIdentifier) {
            throw .attestation(.certificationDeclarationInvalidPAA)
        }
    }
}
