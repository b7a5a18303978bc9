/// Reads little-endian integers and byte runs from a buffer, throwing instead of trapping when the
/// buffer is too short. Every decoder of wire data in the package reads through this type.
public struct ByteReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// Index of the next unread byte.
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes not yet read.
    public var remaining: Int { bytes.count - offset }
    /// True when every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads one byte.
    public mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        guard offset < bytes.count else { throw ByteReaderError(needed: 1, offset: offset, available: 0) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian unsigned integer of `T`'s width.
    public mutating func readLE<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self) throws(ByteReaderError) -> T {
        let size = T.bitWidth / 8
        guard remaining >= size else { throw ByteReaderError(needed: size, offset: offset, available: remaining) }
        var value: T = 0
        for i in 0..<size { value |= T(bytes[offset + i]) << (8 * i) }
        offset += size
        return value
    }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw ByteReaderError(needed: count, offset: offset, available: remaining)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Advances past `count` bytes.
    public mutating func skip(_ count: Int) throws(ByteReaderError) {
        guard count >= 0, remaining >= count else {
            throw ByteReaderError(needed: count, offset: offset, available: remaining)
        }
        offset += count
    }

    /// Reads every remaining byte.
    public mutating func readRest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}

/// The buffer ended before a field did.
public struct ByteReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bytes the field needed.
    public let needed: Int
    /// Where the field started.
    public let offset: Int
    /// Bytes that were left.
    public let available: Int
    public var description: String {
        "truncated input: needed \(needed) byte(s) at offset \(offset), \(available) left"
    }
}
