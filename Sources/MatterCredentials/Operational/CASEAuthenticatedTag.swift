/// A CASE Authenticated Tag (CAT): a 32-bit value carried in a NOC subject, `identifier << 16 | version`.
///
/// A CAT with version 0 is invalid. An ACL entry names a CAT through the subject
/// ``accessControlSubject`` (`0xFFFFFFFD00000000 | CAT`).
package struct CASEAuthenticatedTag: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A CAT from its identifier and version.
    package init(identifier: UInt16, version: UInt16) {
        rawValue = UInt32(identifier) << 16 | UInt32(version)
    }

    /// The upper 16 bits.
    package var identifier: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 16) }
    /// The lower 16 bits; 0 is not a valid version.
    package var version: UInt16 { UInt16(truncatingIfNeeded: rawValue) }
    /// Whether the version is non-zero.
    package var isValid: Bool { version != 0 }
    /// The 64-bit ACL subject that stands for this CAT.
    package var accessControlSubject: UInt64 { 0xFFFF_FFFD_0000_0000 | UInt64(rawValue) }

    package var description: String { "CAT 0x" + hex(UInt64(rawValue), 8) }
}
