import MatterTLV

/// The NOCSR elements a device returns in CSRResponse, signed (with the attestation challenge) by its DAC key.
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | csr | octets (PKCS#10 DER) |
/// | 2 | CSRNonce | octets (32) |
/// | 3 | vendor_reserved1 | octets, optional |
/// | 4 | vendor_reserved2 | octets, optional |
/// | 5 | vendor_reserved3 | octets, optional |
package struct NOCSRElements: Hashable, Sendable {
    /// Largest encoded NOCSR elements a controller accepts (`kMaxRspLen`).
    package static let maximumByteCount = 900
    /// The CSR nonce length.
    package static let nonceByteCount = 32

    package var csr: [UInt8]
    package var csrNonce: [UInt8]
    package var vendorReserved1: [UInt8]?
    package var vendorReserved2: [UInt8]?
    package var vendorReserved3: [UInt8]?

    package init(
        csr: [UInt8], csrNonce: [UInt8], vendorReserved1: [UInt8]? = nil, vendorReserved2: [UInt8]? = nil,
        vendorReserved3: [UInt8]? = nil
    ) {
        self.csr = csr
        self.csrNonce = csrNonce
        self.vendorReserved1 = vendorReserved1
        self.vendorReserved2 = vendorReserved2
        self.vendorReserved3 = vendorReserved3
    }

    /// Decodes the TLV; fields in tag order, nonce of 32 bytes, at most 900 bytes.
    package init(tlv bytes: [UInt8]) throws(CredentialsError) {
        let what = "NOCSR elements"
        guard bytes.count <= Self.maximumByteCount else {
            throw .malformedTLV(what: what, reason: "\(bytes.count) bytes, limit \(Self.maximumByteCount)")
        }
        var fields = try TLVFieldReader(structure: bytes, what: what)
        csr = try fields.bytes(1, "csr")
        csrNonce = try fields.bytes(2, "CSRNonce")
        guard csrNonce.count == Self.nonceByteCount else { throw fields.fail("CSRNonce must be 32 bytes") }
        vendorReserved1 = try fields.optionalBytes(3, "vendor_reserved1")
        vendorReserved2 = try fields.optionalBytes(4, "vendor_reserved2")
        vendorReserved3 = try fields.optionalBytes(5, "vendor_reserved3")
        try fields.expectEnd()
    }

    /// The TLV encoding.
    package var tlvEncoded: [UInt8] {
        var writer = TLVWriter(capacity: csr.count + 64)
        writer.putStructure { w in
            w.putBytes(csr, tag: .context(1))
            w.putBytes(csrNonce, tag: .context(2))
            if let vendorReserved1 { w.putBytes(vendorReserved1, tag: .context(3)) }
            if let vendorReserved2 { w.putBytes(vendorReserved2, tag: .context(4)) }
            if let vendorReserved3 { w.putBytes(vendorReserved3, tag: .context(5)) }
        }
        return writer.bytes
    }
}

extension TLVFieldReader {
    /// A reader over the members of the anonymous structure encoded in `bytes`.
    init(structure bytes: [UInt8], what: String) throws(CredentialsError) {
        let root: TLVElement
        do { root = try TLVElement.decode(bytes) } catch { throw .malformedTLV(what: what, reason: "\(error)") }
        guard root.tag == .anonymous, case .structure(let members) = root.value else {
            throw .malformedTLV(what: what, reason: "must be an anonymous structure")
        }
        self.init(members: members, what: what)
    }

    mutating func optionalBytes(_ tag: UInt8, _ name: String) throws(CredentialsError) -> [UInt8]? {
        guard let element = optional(tag) else { return nil }
        guard let value = element.bytes else { throw fail("\(name) must be an octet string") }
        return value
    }
}
