/// Reads little-endian integers and byte runs from a buffer, throwing instead of trapping when the
/// buffer is too short. Every decoder of wire data in the package reads through this type.
package struct ByteReader: Sendable {
    /// The bytes being read.
    package let bytes: [UInt8]
    /// Index of the next unread byte (stored under another name so that the integer readers can be
    /// inlined, and specialized, in the modules that call them).
    @usableFromInline var position: Int
    /// Index of the next unread byte.
    package var offset: Int { position }

    package init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.position = offset
    }

    /// Bytes not yet read.
    @inlinable package var remaining: Int { bytes.count - position }
    /// True when every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    /// Reads one byte.
    package mutating func readUInt8() throws(ByteReaderError) -> UInt8 {
        guard offset < bytes.count else { throw ByteReaderError(needed: 1, offset: offset, available: 0) }
        defer { position += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian unsigned integer of `T`'s width.
    @inlinable
    package mutating func readLE<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self) throws(ByteReaderError)
        -> T
    {
        let size = T.bitWidth / 8
        guard remaining >= size else { throw ByteReaderError(needed: size, offset: position, available: remaining) }
        var value: T = 0
        for i in 0..<size { value |= T(bytes[position + i]) << (8 * i) }
        position += size
        return value
    }

    /// Reads `count` bytes.
    package mutating func readBytes(_ count: Int) throws(ByteReaderError) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw ByteReaderError(needed: count, offset: offset, available: remaining)
        }
        defer { position += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Advances past `count` bytes.
    package mutating func skip(_ count: Int) throws(ByteReaderError) {
        guard count >= 0, remaining >= count else {
            throw ByteReaderError(needed: count, offset: offset, available: remaining)
        }
        position += count
    }

    /// Reads every remaining byte.
    package mutating func readRest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[offset...])
    }
}

/// The buffer ended before a field did.
package struct ByteReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bytes the field needed.
    package let needed: Int
    /// Where the field started.
    package let offset: Int
    /// Bytes that were left.
    package let available: Int
    @usableFromInline init(needed: Int, offset: Int, available: Int) {
        self.needed = needed
        self.offset = offset
        self.available = available
    }

    package var description: String {
        "truncated input: needed \(needed) byte(s) at offset \(offset), \(available) left"
    }
}
