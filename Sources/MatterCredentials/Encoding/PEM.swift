public import MatterCrypto

/// PEM text (RFC 7468) for certificates and keys: base64 of DER between `-----BEGIN <label>-----` and
/// `-----END <label>-----`, 64 characters a line.
public enum PEM {
    /// Label of X.509 certificates.
    public static let certificateLabel = "CERTIFICATE"
    /// Label of SEC1 `ECPrivateKey` keys (what the SDK and `openssl ecparam -genkey` write).
    public static let ecPrivateKeyLabel = "EC PRIVATE KEY"
    /// Label of PKCS#8 `PrivateKeyInfo` keys.
    public static let privateKeyLabel = "PRIVATE KEY"

    /// `der` as one PEM block.
    public static func encode(_ der: [UInt8], label: String) -> String {
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
    public static func decode(_ text: String, label: String) throws(CredentialsError) -> [UInt8] {
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
    public static func encode(privateKey: P256PrivateKey) throws(CredentialsError) -> String {
        encode(
            try withCrypto { () throws(CryptoError) in try privateKey.sec1DERRepresentation() },
            label: ecPrivateKeyLabel)
    }

    /// A P-256 private key from PEM: an `EC PRIVATE KEY` (SEC1) or `PRIVATE KEY` (PKCS#8) block.
    public static func privateKey(_ text: String) throws(CredentialsError) -> P256PrivateKey {
        if text.contains("-----BEGIN \(ecPrivateKeyLabel)-----") {
            let der = try decode(text, label: ecPrivateKeyLabel)
            return try withCrypto { () throws(CryptoError) in try P256PrivateKey(sec1DERRepresentation: der) }
        }
        let der = try decode(text, label: privateKeyLabel)
        return try withCrypto { () throws(CryptoError) in try P256PrivateKey(pkcs8DERRepresentation: der) }
    }
}

/// RFC 4648 base64 with padding; decoding ignores whitespace.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                guard padding == 0, let value = alphabet.firstIndex(of: character) else { return nil }
                values.append(UInt8(value))
            }
        }
        guard padding <= 2, (values.count + padding) % 4 == 0, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            let v = Array(chunk) + [UInt8](repeating: 0, count: 4 - chunk.count)
            out.append(v[0] << 2 | v[1] >> 4)
            if chunk.count > 2 { out.append(v[1] << 4 | v[2] >> 2) }
            if chunk.count > 3 { out.append(v[2] << 6 | v[3]) }
            index += 4
        }
        return out
    }
}
