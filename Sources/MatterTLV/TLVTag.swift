/// The tag of a TLV element: how a structure or list member is named.
///
/// | form | control bits | tag bytes |
/// |---|---|---|
/// | anonymous | `000` | none |
/// | context-specific | `001` | 1 (0...255) |
/// | common profile | `010` / `011` | 2 / 4 |
/// | implicit profile | `100` / `101` | 2 / 4 |
/// | fully qualified | `110` / `111` | vendor ID (2), profile (2), tag (2 / 4) |
///
/// The writer picks the short form whenever the tag number fits in 16 bits; the reader accepts both, so a
/// 4-byte tag holding a small number decodes to the same `TLVTag` as its 2-byte form.
public enum TLVTag: Hashable, Sendable {
    /// No tag: top-level elements, array members, some list members.
    case anonymous
    /// A context-specific tag, the usual name of a structure member (`0`...`255`).
    case context(UInt8)
    /// A tag in the Matter common profile; written in 2 bytes when it fits, else 4.
    case commonProfile(UInt32)
    /// A tag in the profile implied by the context; written in 2 bytes when it fits, else 4.
    case implicitProfile(UInt32)
    /// A tag fully qualified by vendor ID and profile number; written in 6 bytes when `tag` fits in 16 bits,
    /// else 8. The wire order is vendor ID, profile number, tag, each little-endian.
    case fullyQualified(vendorID: UInt16, profile: UInt16, tag: UInt32)
}

extension TLVTag: CustomStringConvertible {
    /// The tag as logs show it: `anonymous`, `1` (context), `common:5`, `implicit:5`, or
    /// `FFF1:DEED:1` (vendor ID, profile and tag number of a fully-qualified tag, all in hexadecimal).
    public var description: String {
        switch self {
        case .anonymous: "anonymous"
        case .context(let number): "\(number)"
        case .commonProfile(let number): "common:\(number)"
        case .implicitProfile(let number): "implicit:\(number)"
        case .fullyQualified(let vendorID, let profile, let tag):
            "\(hex4(vendorID)):\(hex4(profile)):\(String(tag, radix: 16, uppercase: true))"
        }
    }
}

/// Upper-case hexadecimal, zero-padded to four digits.
private func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
