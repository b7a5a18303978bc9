public import MatterCore

/// Why device attestation was rejected, in the SDK's terms (`AttestationVerificationResult`).
///
/// ``code`` is the SDK's numeric result, so logs and the CLI can name the same failure the SDK's controllers
/// report (for example 101 "PAA not found", 601 "no certificate found for the CD signer").
public enum DeviceAttestationFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// 101: no PAA in the trust store has the PAI's authority key ID as its subject key ID.
    case paaNotFound(authorityKeyIdentifier: [UInt8])
    /// 102: the PAA was not valid at the DAC's notBefore.
    case paaExpired
    /// 105: the PAA breaks the attestation certificate profile (or carries a Product ID).
    case paaFormatInvalid(String)
    /// 200: the PAI was not valid at the DAC's notBefore.
    case paiExpired
    /// 203: the PAI breaks the attestation certificate profile.
    case paiFormatInvalid(String)
    /// 205: the PAA has a Vendor ID that differs from the PAI's.
    case paiVendorIDMismatch(paa: VendorID, pai: VendorID)
    /// 207: no PAI was supplied.
    case paiMissing
    /// 300: the DAC is not valid at the current time.
    case dacExpired
    /// 301: the chain PAA → PAI → DAC does not verify (signature, constraints, validity at issuance).
    case dacSignatureInvalid(String)
    /// 303: the DAC breaks the attestation certificate profile.
    case dacFormatInvalid(String)
    /// 305: the PAI has no Vendor ID, or it differs from the DAC's.
    case dacVendorIDMismatch(dac: VendorID, pai: VendorID?)
    /// 306: the DAC has no Product ID, or the PAI has one that differs from the DAC's.
    case dacProductIDMismatch(dac: ProductID?, pai: ProductID?)
    /// 500: the attestation signature does not verify with the DAC public key over elements ‖ challenge.
    case attestationSignatureInvalid
    /// 501: the AttestationElements TLV is malformed.
    case attestationElementsMalformed(String)
    /// 502: the attestation nonce differs from the one sent in AttestationRequest.
    case attestationNonceMismatch
    /// 503: the attestation signature is not a 64-byte raw r‖s signature.
    case attestationSignatureInvalidFormat
    /// 600: the certification declaration's CMS envelope has no readable signer key ID.
    case certificationDeclarationNoKeyID(String)
    /// 601: the signer key ID is not one of the known CD signing keys.
    case certificationDeclarationNoCertificateFound(keyIdentifier: [UInt8])
    /// 602: the CMS signature does not verify with the signer's key.
    case certificationDeclarationInvalidSignature
    /// 603: the certification declaration's TLV content is malformed.
    case certificationDeclarationInvalidFormat(String)
    /// 604: the CD's vendor_id (or dac_origin_vendor_id) differs from BasicInformation, the DAC or the PAI.
    case certificationDeclarationInvalidVendorID(String)
    /// 605: the BasicInformation, DAC or PAI product ID is not in the CD's product_id_array (or origin PID).
    case certificationDeclarationInvalidProductID(String)
    /// 606: the CD's authorized_paa_list does not contain the PAA's subject key ID.
    case certificationDeclarationInvalidPAA
    /// 800: a required input is empty or too large (AttestationElements over 900 bytes).
    case invalidArgument(String)

    /// The SDK's `AttestationVerificationResult` value.
    public var code: Int {
        switch self {
        case .paaNotFound: 101
        case .paaExpired: 102
        case .paaFormatInvalid: 105
        case .paiExpired: 200
        case .paiFormatInvalid: 203
        case .paiVendorIDMismatch: 205
        case .paiMissing: 207
        case .dacExpired: 300
        case .dacSignatureInvalid: 301
        case .dacFormatInvalid: 303
        case .dacVendorIDMismatch: 305
        case .dacProductIDMismatch: 306
        case .attestationSignatureInvalid: 500
        case .attestationElementsMalformed: 501
        case .attestationNonceMismatch: 502
        case .attestationSignatureInvalidFormat: 503
        case .certificationDeclarationNoKeyID: 600
        case .certificationDeclarationNoCertificateFound: 601
        case .certificationDeclarationInvalidSignature: 602
        case .certificationDeclarationInvalidFormat: 603
        case .certificationDeclarationInvalidVendorID: 604
        case .certificationDeclarationInvalidProductID: 605
        case .certificationDeclarationInvalidPAA: 606
        case .invalidArgument: 800
        }
    }

    public var description: String {
        let text: String
        switch self {
        case .paaNotFound(let akid):
            text = "PAA not found in the trust store (PAI authority key ID \(Hex.encode(akid).uppercased()))"
        case .paaExpired: text = "PAA was not valid when the DAC was issued"
        case .paaFormatInvalid(let reason): text = "PAA format invalid: \(reason)"
        case .paiExpired: text = "PAI was not valid when the DAC was issued"
        case .paiFormatInvalid(let reason): text = "PAI format invalid: \(reason)"
        case .paiVendorIDMismatch(let paa, let pai): text = "PAA vendor ID \(paa) differs from PAI vendor ID \(pai)"
        case .paiMissing: text = "PAI certificate missing"
        case .dacExpired: text = "DAC is not valid at the current time"
        case .dacSignatureInvalid(let reason): text = "certificate chain PAA → PAI → DAC does not verify: \(reason)"
        case .dacFormatInvalid(let reason): text = "DAC format invalid: \(reason)"
        case .dacVendorIDMismatch(let dac, let pai):
            text = "DAC vendor ID \(dac) does not match PAI vendor ID \(pai.map { "\($0)" } ?? "(none)")"
        case .dacProductIDMismatch(let dac, let pai):
            text =
                "DAC product ID \(dac.map { "\($0)" } ?? "(none)") does not match PAI product ID "
                + (pai.map { "\($0)" } ?? "(none)")
        case .attestationSignatureInvalid: text = "attestation signature does not verify with the DAC public key"
        case .attestationElementsMalformed(let reason): text = "attestation elements malformed: \(reason)"
        case .attestationNonceMismatch: text = "attestation nonce does not match the one sent"
        case .attestationSignatureInvalidFormat: text = "attestation signature is not a 64-byte r‖s signature"
        case .certificationDeclarationNoKeyID(let reason):
            text = "certification declaration has no signer key ID: \(reason)"
        case .certificationDeclarationNoCertificateFound(let kid):
            text = "no known CD signing key has key ID \(Hex.encode(kid).uppercased())"
        case .certificationDeclarationInvalidSignature: text = "certification declaration signature does not verify"
        case .certificationDeclarationInvalidFormat(let reason): text = "certification declaration malformed: \(reason)"
        case .certificationDeclarationInvalidVendorID(let reason):
            text = "certification declaration vendor ID mismatch: \(reason)"
        case .certificationDeclarationInvalidProductID(let reason):
            text = "certification declaration product ID mismatch: \(reason)"
        case .certificationDeclarationInvalidPAA:
            text = "PAA is not in the certification declaration's authorized PAA list"
        case .invalidArgument(let reason): text = "invalid argument: \(reason)"
        }
        return "[\(code)] \(text)"
    }
}
