package import MatterCore
public import MatterCrypto

/// What a device needs to answer CertificateChainRequest and AttestationRequest: its DAC and key, the PAI, and
/// its certification declaration (CMS DER).
public struct DeviceAttestationCredentials: Sendable {
    public let dac: AttestationCertificate
    /// The DAC private key. Secret.
    public let dacKey: P256PrivateKey
    public let pai: AttestationCertificate
    /// The signed certification declaration (CMS DER), sent in the attestation elements.
    public let certificationDeclaration: [UInt8]

    /// Bundles credentials, checking that the key matches the DAC and that the PAI issued the DAC.
    public init(
        dac: AttestationCertificate, dacKey: P256PrivateKey, pai: AttestationCertificate,
        certificationDeclaration: [UInt8]
    ) throws(CredentialsError) {
        guard dacKey.publicKey == dac.publicKey else { throw .publicKeyMismatch }
        guard dac.isSigned(by: pai.publicKey) else {
            throw .invalidArgument("the DAC is not signed by the PAI")
        }
        _ = try SignedCertificationDeclaration(cms: certificationDeclaration)
        self.dac = dac
        self.dacKey = dacKey
        self.pai = pai
        self.certificationDeclaration = certificationDeclaration
    }

    /// Attestation elements with this device's CD and the commissioner's nonce.
    package func attestationElements(nonce: [UInt8], timestamp: UInt32 = 0) -> AttestationElements {
        AttestationElements(
            certificationDeclaration: certificationDeclaration, attestationNonce: nonce, timestamp: timestamp)
    }
}

/// A development attestation PKI: a PAA and a PAI with their keys, issuing DACs and certification declarations
/// for test devices. Everything it makes is test-only; certification declarations are signed with whatever CD
/// key is given (SDK controllers accept the SDK's public test CD key).
package struct TestAttestationAuthority: Sendable {
    package let vendorID: VendorID
    package let paa: AttestationCertificate
    /// Secret (test-only).
    package let paaKey: P256PrivateKey
    package let pai: AttestationCertificate
    /// Secret (test-only).
    package let paiKey: P256PrivateKey

    /// Restores an authority from its certificates and keys.
    package init(
        paa: AttestationCertificate, paaKey: P256PrivateKey, pai: AttestationCertificate, paiKey: P256PrivateKey
    ) throws(CredentialsError) {
        guard paa.publicKey == paaKey.publicKey, pai.publicKey == paiKey.publicKey else { throw .publicKeyMismatch }
        guard let vendorID = pai.vendorID else { throw .invalidArgument("the PAI has no Vendor ID") }
        guard pai.isSigned(by: paa.publicKey) else { throw .invalidArgument("the PAI is not signed by the PAA") }
        self.vendorID = vendorID
        self.paa = paa
        self.paaKey = paaKey
        self.pai = pai
        self.paiKey = paiKey
    }

    /// Generates a fresh PAA (VID `vendorID` unless `paaHasVendorID` is false) and PAI (VID `vendorID`).
    package static func generate(
        vendorID: VendorID = .testVendor1, validity: AttestationCertificate.Validity = .noExpiry(fromYear: 2024),
        paaCommonName: String = "Matter Emulator Test PAA", paiCommonName: String = "Matter Emulator Test PAI",
        paaHasVendorID: Bool = true
    ) throws(CredentialsError) -> TestAttestationAuthority {
        let paaKey = try withCrypto { () throws(CryptoError) in try P256PrivateKey() }
        let paiKey = try withCrypto { () throws(CryptoError) in try P256PrivateKey() }
        let paa = try AttestationCertificate.makePAA(
            key: paaKey, commonName: paaCommonName, vendorID: paaHasVendorID ? vendorID : nil, validity: validity)
        let pai = try AttestationCertificate.makePAI(
            publicKey: paiKey.publicKey, commonName: paiCommonName, vendorID: vendorID, validity: validity, issuer: paa,
            issuerKey: paaKey)
        return try TestAttestationAuthority(paa: paa, paaKey: paaKey, pai: pai, paiKey: paiKey)
    }

    /// An authority for any vendor: a fresh PAI for `vendorID` under `paa`, a PAA that is not scoped to a vendor
    /// (its subject has no Vendor ID, so it may sign a PAI of any vendor). Twins of recorded devices use it to
    /// serve the recording's Vendor ID.
    package static func forVendor(
        _ vendorID: VendorID, paa: AttestationCertificate, paaKey: P256PrivateKey,
        validity: AttestationCertificate.Validity = .noExpiry(fromYear: 2024)
    ) throws(CredentialsError) -> TestAttestationAuthority {
        guard paa.vendorID == nil else {
            throw .invalidArgument("the PAA is scoped to a vendor; a PAI of another vendor needs a PAA without one")
        }
        let paiKey = try withCrypto { () throws(CryptoError) in try P256PrivateKey() }
        let digits = String(vendorID.rawValue, radix: 16, uppercase: true)
        let pai = try AttestationCertificate.makePAI(
            publicKey: paiKey.publicKey,
            commonName: "Matter Emulator Test PAI " + String(repeating: "0", count: 4 - digits.count) + digits,
            vendorID: vendorID, validity: validity, issuer: paa, issuerKey: paaKey)
        return try TestAttestationAuthority(paa: paa, paaKey: paaKey, pai: pai, paiKey: paiKey)
    }

    /// Issues a DAC (fresh key unless `dacKey` is given) and a certification declaration for one product.
    ///
    /// - Parameters:
    ///   - certificationDeclarationKey: the CD signing key (for SDK controllers: the SDK test CD key).
    ///   - certificationDeclarationKeyIdentifier: the signer key ID; defaults to SHA-1 of the CD key's point.
    ///   - certificateID: the CD's 19-character certificate_id.
    package func issueDevice(
        productID: ProductID, deviceTypeID: UInt32, commonName: String? = nil,
        certificationDeclarationKey: P256PrivateKey, certificationDeclarationKeyIdentifier: [UInt8]? = nil,
        certificateID: String = "ZIG20142ZB330003-24",
        validity: AttestationCertificate.Validity = .noExpiry(fromYear: 2024),
        dacKey: P256PrivateKey? = nil, vendorID: VendorID? = nil, dacSerialNumber: [UInt8]? = nil
    ) throws(CredentialsError) -> DeviceAttestationCredentials {
        let key: P256PrivateKey
        if let dacKey { key = dacKey } else { key = try withCrypto { () throws(CryptoError) in try P256PrivateKey() } }
        let vid = vendorID ?? self.vendorID
        let dac = try AttestationCertificate.makeDAC(
            publicKey: key.publicKey,
            commonName: commonName ?? "Matter Emulator Test DAC \(hex(UInt64(productID.rawValue), 4))",
            vendorID: vid, productID: productID, validity: validity, issuer: pai, issuerKey: paiKey,
            serialNumber: dacSerialNumber)
        let declaration = CertificationDeclaration(
            vendorID: vid, productIDs: [productID], deviceTypeID: deviceTypeID, certificateID: certificateID)
        let cms = try SignedCertificationDeclaration.sign(
            declaration, key: certificationDeclarationKey, signerKeyIdentifier: certificationDeclarationKeyIdentifier)
        return try DeviceAttestationCredentials(
            dac: dac, dacKey: key, pai: pai, certificationDeclaration: cms.cmsEncoded)
    }
}
