import MatterCore
package import MatterCrypto

/// PEM text (RFC 7468) for certificates and keys: base64 of DER between `-----BEGIN <label>-----` and
/// `-----END <label>-----`, 64 characters a line.
package enum PEM {
    /// Label of X.509 certificates.
    package static let certificateLabel = "CERTIFICATE"
    /// Label of SEC1 `ECPrivateKey` keys (what the SDK and `openssl ecparam -genkey` write).
    package static let ecPrivateKeyLabel = "EC PRIVATE KEY"
    /// Label of PKCS#8 `PrivateKeyInfo` keys.
    package static let privateKeyLabel = "PRIVATE KEY"

    /// `der` as one PEM block.
    package static func encode(_ der: [UInt8], label: String) -> String {
        let body = Base64.encode(der)
        var lines = ["-----BEGIN \(label)-----"]
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER of the first block labelled `label` in `text`.
    package static func decode(_ text: String, label: String) throws(CredentialsError) -> [UInt8] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        guard let start = text.firstRange(of: begin), let stop = text[start.upperBound...].firstRange(of: end)
        else { throw .malformedPEM("no \(label) block") }
        guard let der = Base64.decode(String(text[start.upperBound..<stop.lowerBound])), !der.isEmpty else {
            throw .malformedPEM("the \(label) block is not valid base64")
        }
        return der
    }

    /// The SEC1 PEM (`EC PRIVATE KEY`) of a key. Secret.
    package static func encode(privateKey: P256PrivateKey) throws(CredentialsError) -> String {
        encode(
            try withCrypto { () throws(CryptoError) in try privateKey.sec1DERRepresentation() },
            label: ecPrivateKeyLabel)
    }

    /// A P-256 private key from PEM: an `EC PRIVATE KEY` (SEC1) or `PRIVATE KEY` (PKCS#8) block.
    package static func privateKey(_ text: String) throws(CredentialsError) -> P256PrivateKey {
        if text.contains("-----BEGIN \(ecPrivateKeyLabel)-----") {
            let der = try decode(text, label: ecPrivateKeyLabel)
            return try withCrypto { () throws(CryptoError) in try P256PrivateKey(sec1DERRepresentation: der) }
        }
        let der = try decode(text, label: privateKeyLabel)
        return try withCrypto { () throws(CryptoError) in try P256PrivateKey(pkcs8DERRepresentation: der) }
    }
}
