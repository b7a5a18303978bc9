/// DER contents of the object identifiers this module reads and writes (the bytes after `06 len`).
enum OID {
    // Algorithms
    /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2
    static let ecdsaWithSHA256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]
    /// id-ecPublicKey, 1.2.840.10045.2.1
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// prime256v1 (secp256r1), 1.2.840.10045.3.1.7
    static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    /// sha256, 2.16.840.1.101.3.4.2.1
    static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]

    // CMS content types
    /// id-data, 1.2.840.113549.1.7.1
    static let pkcs7Data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// id-signedData, 1.2.840.113549.1.7.2
    static let pkcs7SignedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    // Certificate extensions (2.5.29.x)
    static let basicConstraints: [UInt8] = [0x55, 0x1D, 0x13]
    static let keyUsage: [UInt8] = [0x55, 0x1D, 0x0F]
    static let extendedKeyUsage: [UInt8] = [0x55, 0x1D, 0x25]
    static let subjectKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x0E]
    static let authorityKeyIdentifier: [UInt8] = [0x55, 0x1D, 0x23]

    /// id-kp-`n` (1.3.6.1.5.5.7.3.n), the extended key usage purposes.
    static func keyPurpose(_ n: UInt8) -> [UInt8] { [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, n] }

    // Distinguished-name attributes
    /// An X.520 attribute, 2.5.4.`n`.
    static func x520(_ n: UInt8) -> [UInt8] { [0x55, 0x04, n] }
    static let commonName = x520(3)
    static let organizationName = x520(10)
    /// domainComponent, 0.9.2342.19200300.100.1.25
    static let domainComponent: [UInt8] = [0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19]
    /// A Matter operational DN attribute, 1.3.6.1.4.1.37244.1.`n` (node ID 1 … CAT 6).
    static func matterOperational(_ n: UInt8) -> [UInt8] { [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xA2, 0x7C, 0x01, n] }
    /// Matter device attestation Vendor ID, 1.3.6.1.4.1.37244.2.1
    static let matterVendorID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xA2, 0x7C, 0x02, 0x01]
    /// Matter device attestation Product ID, 1.3.6.1.4.1.37244.2.2
    static let matterProductID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0xA2, 0x7C, 0x02, 0x02]
}
