/// One extension of a Matter operational certificate, in TLV list order (the DER keeps that order too; the
/// signature only verifies if it is kept).
///
/// | TLV tag | extension | TLV value | DER (critical) |
/// |---|---|---|---|
/// | 1 | basicConstraints | struct `{1: isCA, 2: pathLen (opt)}` | `SEQUENCE { [BOOLEAN TRUE], [INTEGER pathLen] }` (yes) |
/// | 2 | keyUsage | uint (``KeyUsage`` bits) | BIT STRING, bit *k* = TLV bit *k* (yes) |
/// | 3 | extKeyUsage | array of uint (``KeyPurpose``) | SEQUENCE OF OID (yes) |
/// | 4 | subjectKeyIdentifier | octets (20) | OCTET STRING (no) |
/// | 5 | authorityKeyIdentifier | octets (20) | `SEQUENCE { [0] keyId }` (no) |
/// | 6 | future extension | octets | the complete DER `Extension`, inserted verbatim |
package enum MatterCertificateExtension: Hashable, Sendable {
    /// basicConstraints; `pathLengthConstraint` nil when absent.
    case basicConstraints(isCA: Bool, pathLengthConstraint: UInt8?)
    /// keyUsage.
    case keyUsage(KeyUsage)
    /// extendedKeyUsage, purposes in certificate order.
    case extendedKeyUsage([KeyPurpose])
    /// subjectKeyIdentifier (20 bytes).
    case subjectKeyIdentifier([UInt8])
    /// authorityKeyIdentifier keyIdentifier (20 bytes).
    case authorityKeyIdentifier([UInt8])
    /// Any other extension: its complete DER `Extension` SEQUENCE.
    case future([UInt8])
}

/// X.509 key usage bits as Matter TLV numbers them.
package struct KeyUsage: OptionSet, Hashable, Sendable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let digitalSignature = KeyUsage(rawValue: 0x0001)
    package static let nonRepudiation = KeyUsage(rawValue: 0x0002)
    package static let keyEncipherment = KeyUsage(rawValue: 0x0004)
    package static let dataEncipherment = KeyUsage(rawValue: 0x0008)
    package static let keyAgreement = KeyUsage(rawValue: 0x0010)
    package static let keyCertSign = KeyUsage(rawValue: 0x0020)
    package static let cRLSign = KeyUsage(rawValue: 0x0040)
    package static let encipherOnly = KeyUsage(rawValue: 0x0080)
    package static let decipherOnly = KeyUsage(rawValue: 0x0100)

    /// The DER BIT STRING contents (unused-bits byte first): TLV bit *k* is BIT STRING bit *k*, counted from the
    /// most significant bit of the first byte; minimal length.
    var derBitString: [UInt8] {
        guard rawValue != 0 else { return [0x00] }
        let highest = 15 - rawValue.leadingZeroBitCount
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in 0...highest where rawValue & (1 << bit) != 0 {
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return [UInt8(7 - highest % 8)] + bytes
    }

    /// Reads BIT STRING contents (unused-bits byte first). Returns nil for bits past `decipherOnly`.
    init?(derBitString contents: [UInt8]) {
        guard let unused = contents.first, unused < 8, contents.count <= 3 else { return nil }
        var value: UInt16 = 0
        for (index, byte) in contents.dropFirst().enumerated() {
            for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                let number = index * 8 + bit
                guard number < 9 else { return nil }
                value |= 1 << number
            }
        }
        self.init(rawValue: value)
    }
}

/// Extended key usage purposes as Matter TLV numbers them.
package enum KeyPurpose: UInt8, Hashable, Sendable, CaseIterable {
    /// id-kp-serverAuth, 1.3.6.1.5.5.7.3.1
    case serverAuth = 1
    /// id-kp-clientAuth, …3.2
    case clientAuth = 2
    /// id-kp-codeSigning, …3.3
    case codeSigning = 3
    /// id-kp-emailProtection, …3.4
    case emailProtection = 4
    /// id-kp-timeStamping, …3.8
    case timeStamping = 5
    /// id-kp-OCSPSigning, …3.9
    case ocspSigning = 6

    var oid: [UInt8] {
        switch self {
        case .serverAuth: OID.keyPurpose(1)
        case .clientAuth: OID.keyPurpose(2)
        case .codeSigning: OID.keyPurpose(3)
        case .emailProtection: OID.keyPurpose(4)
        case .timeStamping: OID.keyPurpose(8)
        case .ocspSigning: OID.keyPurpose(9)
        }
    }

    init?(oid: [UInt8]) {
        guard let match = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = match
    }
}
