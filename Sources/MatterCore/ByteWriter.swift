/// Appends little-endian integers and byte runs to a growing buffer.
package struct ByteWriter: Sendable {
    /// The buffer (stored under another name so that the writers can be inlined, and specialized, in
    /// the modules that call them).
    @usableFromInline var storage: [UInt8]
    /// The bytes written so far.
    package var bytes: [UInt8] { storage }

    package init(capacity: Int = 64) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    @inlinable
    package mutating func writeUInt8(_ value: UInt8) { storage.append(value) }

    /// Appends `value` little-endian in exactly `T`'s width.
    @inlinable
    package mutating func writeLE<T: FixedWidthInteger>(_ value: T) {
        for i in 0..<(T.bitWidth / 8) { storage.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    @inlinable
    package mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        storage.append(contentsOf: data)
    }
}
