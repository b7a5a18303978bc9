package import MatterTLV

/// The attestation elements a device returns in AttestationResponse, signed (with the attestation challenge)
/// by its DAC key.
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | certification_declaration | octets (CMS DER) |
/// | 2 | attestation_nonce | octets (32) |
/// | 3 | timestamp | uint32 (epoch seconds, 0 allowed) |
/// | 4 | firmware_information | octets, optional |
/// | profile-tagged | vendor reserved | any, optional |
package struct AttestationElements: Hashable, Sendable {
    /// Largest encoded attestation elements a controller accepts.
    package static let maximumByteCount = 900
    /// The attestation nonce length.
    package static let nonceByteCount = 32

    package var certificationDeclaration: [UInt8]
    package var attestationNonce: [UInt8]
    package var timestamp: UInt32
    package var firmwareInformation: [UInt8]?
    /// Vendor-reserved elements; each must have a fully qualified or implicit profile tag.
    package var vendorReserved: [TLVElement]

    package init(
        certificationDeclaration: [UInt8], attestationNonce: [UInt8], timestamp: UInt32 = 0,
        firmwareInformation: [UInt8]? = nil, vendorReserved: [TLVElement] = []
    ) {
        self.certificationDeclaration = certificationDeclaration
        self.attestationNonce = attestationNonce
        self.timestamp = timestamp
        self.firmwareInformation = firmwareInformation
        self.vendorReserved = vendorReserved
    }

    /// Decodes the TLV: tags 1, 2, 3 in order, optional 4, then only profile-tagged vendor elements.
    package init(tlv bytes: [UInt8]) throws(CredentialsError) {
        let what = "attestation elements"
        guard bytes.count <= Self.maximumByteCount else {
            throw .malformedTLV(what: what, reason: "\(bytes.count) bytes, limit \(Self.maximumByteCount)")
        }
        var fields = try TLVFieldReader(structure: bytes, what: what)
        certificationDeclaration = try fields.bytes(1, "certification_declaration")
        attestationNonce = try fields.bytes(2, "attestation_nonce")
        guard attestationNonce.count == Self.nonceByteCount else {
            throw fields.fail("attestation_nonce must be 32 bytes")
        }
        timestamp = try fields.uint32(3, "timestamp")
        firmwareInformation = try fields.optionalBytes(4, "firmware_information")
        vendorReserved = Array(fields.rest())
        for element in vendorReserved {
            switch element.tag {
            case .fullyQualified, .implicitProfile: continue
            default: throw fields.fail("element with tag \(element.tag) is neither a known field nor vendor reserved")
            }
        }
    }

    /// The TLV encoding.
    package var tlvEncoded: [UInt8] {
        var writer = TLVWriter(capacity: certificationDeclaration.count + 64)
        writer.putStructure { w in
            w.putBytes(certificationDeclaration, tag: .context(1))
            w.putBytes(attestationNonce, tag: .context(2))
            w.putUnsigned(UInt64(timestamp), tag: .context(3))
            if let firmwareInformation { w.putBytes(firmwareInformation, tag: .context(4)) }
            for element in vendorReserved { w.put(element) }
        }
        return writer.bytes
    }
}
