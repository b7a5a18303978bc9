/// The discriminator that tells commissionable devices apart before the passcode is tried.
///
/// A QR code carries the full 12-bit ("long") value; a manual pairing code and the `_S` DNS-SD
/// subtype carry only its top 4 bits ("short", `long >> 8`).
public enum SetupDiscriminator: Hashable, Sendable, CustomStringConvertible {
    /// The full 12-bit value, 0...4095.
    case long(UInt16)
    /// Only the top 4 bits, 0...15.
    case short(UInt8)

    /// The short form: the top 4 bits of a long value, or the short value itself.
    public var shortValue: UInt8 {
        switch self {
        case .long(let value): UInt8(truncatingIfNeeded: (value >> 8) & 0x0F)
        case .short(let value): value
        }
    }

    /// The long value, or nil for a short discriminator.
    public var longValue: UInt16? {
        if case .long(let value) = self { value } else { nil }
    }

    /// True when a device advertising the long discriminator `long` matches this one: equal values
    /// for a long discriminator, equal top 4 bits for a short one.
    public func matches(_ long: UInt16) -> Bool {
        switch self {
        case .long(let value): value == long
        case .short(let value): UInt16(value) == long >> 8
        }
    }

    /// A uniformly random long discriminator.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> SetupDiscriminator {
        .long(UInt16.random(in: 0...maxLong, using: &generator))
    }

    /// Largest long discriminator (12 bits).
    public static let maxLong: UInt16 = 0x0FFF
    /// Largest short discriminator (4 bits).
    public static let maxShort: UInt8 = 0x0F

    /// `3840 (long)` or `15 (short)`.
    public var description: String {
        switch self {
        case .long(let value): "\(value) (long)"
        case .short(let value): "\(value) (short)"
        }
    }
}
