/// Why TLV bytes could not be read, or a TLV element could not be read as the type a caller asked for.
///
/// Cases that describe malformed input carry the byte offset of the offending element's control byte.
/// Cases raised while converting an element to a Swift type carry the element's tag instead, because
/// an element built or decoded as a tree no longer knows where it came from.
public enum TLVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ends inside the element starting at `offset` (or, at top level, where an element was
    /// required).
    case truncated(offset: Int)
    /// The string starting at `offset` declares `length` bytes but only `available` remain.
    case lengthExceedsInput(offset: Int, length: UInt64, available: Int)
    /// The control byte at `offset` names a reserved element type (0x19–0x1F).
    case reservedElementType(offset: Int, controlByte: UInt8)
    /// The end-of-container at `offset` has tag bits set (it must be exactly 0x18).
    case endOfContainerWithTag(offset: Int, controlByte: UInt8)
    /// An end-of-container at `offset` closes nothing.
    case endOfContainerOutsideContainer(offset: Int)
    /// The input ends at `offset` with `openContainers` containers still open.
    case containerNotClosed(offset: Int, openContainers: Int)
    /// The container starting at `offset` would nest deeper than `limit` (``TLVReader/maximumDepth``).
    case nestingTooDeep(offset: Int, limit: Int)
    /// The array member at `offset` has a tag; array members must be anonymous.
    case taggedMemberInArray(offset: Int, tag: TLVTag)
    /// The structure member at `offset` is anonymous; structure members must be tagged.
    case anonymousMemberInStructure(offset: Int)
    /// The UTF-8 string starting at `offset` is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// `count` bytes follow the complete element, from `offset` on.
    case trailingBytes(offset: Int, count: Int)

    /// An element tagged `tag` was required, but its container (or the input) ended first, or no member
    /// carries that tag. `nil` means any element was required.
    case missingElement(tag: TLVTag?)
    /// The next element is tagged `found` where `expected` was required.
    case unexpectedTag(expected: TLVTag, found: TLVTag)
    /// The element tagged `tag` is of type `found` where `expected` was required. Signed and unsigned
    /// integers are different types: an unsigned read of a signed element fails, and vice versa.
    case typeMismatch(tag: TLVTag, expected: TLVElementType, found: TLVElementType)
    /// The integer `value` of the element tagged `tag` does not fit the Swift type named `target`.
    case integerOutOfRange(tag: TLVTag, value: String, target: String)
    /// The element tagged `tag` is well-formed TLV but not a valid value for its field (for decoders
    /// built on this module: an enum raw value out of range, a wrong byte count...).
    case invalidValue(tag: TLVTag, reason: String)

    public var description: String {
        switch self {
        case .truncated(let offset):
            "TLV input is truncated: it ends inside the element at offset \(offset)"
        case .lengthExceedsInput(let offset, let length, let available):
            "TLV string at offset \(offset) declares \(length) bytes but only \(available) remain"
        case .reservedElementType(let offset, let controlByte):
            "TLV control byte 0x\(hexByte(controlByte)) at offset \(offset) uses a reserved element type"
        case .endOfContainerWithTag(let offset, let controlByte):
            "TLV end-of-container at offset \(offset) has tag bits set (0x\(hexByte(controlByte)), must be 0x18)"
        case .endOfContainerOutsideContainer(let offset):
            "TLV end-of-container at offset \(offset) does not close any open container"
        case .containerNotClosed(let offset, let openContainers):
            "TLV input ends at offset \(offset) with \(openContainers) container(s) not closed"
        case .nestingTooDeep(let offset, let limit):
            "TLV container at offset \(offset) nests deeper than the limit of \(limit)"
        case .taggedMemberInArray(let offset, let tag):
            "TLV array member at offset \(offset) has tag \(tag); array members must be anonymous"
        case .anonymousMemberInStructure(let offset):
            "TLV structure member at offset \(offset) is anonymous; structure members must be tagged"
        case .invalidUTF8(let offset):
            "TLV UTF-8 string at offset \(offset) is not valid UTF-8"
        case .trailingBytes(let offset, let count):
            "\(count) unexpected byte(s) after the TLV element, from offset \(offset)"
        case .missingElement(let tag?):
            "required TLV element with tag \(tag) is missing"
        case .missingElement(nil):
            "a TLV element is required but the container ended"
        case .unexpectedTag(let expected, let found):
            "TLV element has tag \(found) where tag \(expected) was required"
        case .typeMismatch(let tag, let expected, let found):
            "TLV element with tag \(tag) is of type \(found), expected \(expected)"
        case .integerOutOfRange(let tag, let value, let target):
            "TLV integer \(value) with tag \(tag) does not fit in \(target)"
        case .invalidValue(let tag, let reason):
            "TLV element with tag \(tag) has an invalid value: \(reason)"
        }
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
