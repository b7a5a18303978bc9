/// Typed reads for decoders that walk a message member by member.
///
/// Each `tag` parameter is the tag the next element must carry (``TLVError/unexpectedTag(expected:found:)``
/// otherwise); `nil` accepts any tag. At the end of a container a required element throws
/// ``TLVError/missingElement(tag:)``.
extension TLVReader {
    /// Reads the next element as `T`.
    public mutating func read<T: TLVDecodable>(_ type: T.Type = T.self, tag: TLVTag? = nil) throws(TLVError) -> T {
        _ = try requireElement(tag: tag)
        return try T(from: &self)
    }

    /// Reads the next element as `T` if it carries `tag`; returns nil, consuming nothing, if the next
    /// element has another tag or the container ends. This is how optional members are read in order.
    public mutating func readIfPresent<T: TLVDecodable>(_ type: T.Type = T.self, tag: TLVTag) throws(TLVError) -> T? {
        guard let header = try peekHeader(), header.tag == tag else { return nil }
        return try T(from: &self)
    }

    /// Reads an unsigned integer that fits in `UInt8`.
    public mutating func readUInt8(tag: TLVTag? = nil) throws(TLVError) -> UInt8 { try read(tag: tag) }
    /// Reads an unsigned integer that fits in `UInt16`.
    public mutating func readUInt16(tag: TLVTag? = nil) throws(TLVError) -> UInt16 { try read(tag: tag) }
    /// Reads an unsigned integer that fits in `UInt32`.
    public mutating func readUInt32(tag: TLVTag? = nil) throws(TLVError) -> UInt32 { try read(tag: tag) }
    /// Reads an unsigned integer.
    public mutating func readUInt64(tag: TLVTag? = nil) throws(TLVError) -> UInt64 { try read(tag: tag) }
    /// Reads a signed integer that fits in `Int8`.
    public mutating func readInt8(tag: TLVTag? = nil) throws(TLVError) -> Int8 { try read(tag: tag) }
    /// Reads a signed integer that fits in `Int16`.
    public mutating func readInt16(tag: TLVTag? = nil) throws(TLVError) -> Int16 { try read(tag: tag) }
    /// Reads a signed integer that fits in `Int32`.
    public mutating func readInt32(tag: TLVTag? = nil) throws(TLVError) -> Int32 { try read(tag: tag) }
    /// Reads a signed integer.
    public mutating func readInt64(tag: TLVTag? = nil) throws(TLVError) -> Int64 { try read(tag: tag) }
    /// Reads a boolean.
    public mutating func readBool(tag: TLVTag? = nil) throws(TLVError) -> Bool { try read(tag: tag) }
    /// Reads a float32.
    public mutating func readFloat(tag: TLVTag? = nil) throws(TLVError) -> Float { try read(tag: tag) }
    /// Reads a float64, or a float32 widened.
    public mutating func readDouble(tag: TLVTag? = nil) throws(TLVError) -> Double { try read(tag: tag) }
    /// Reads a UTF-8 string.
    public mutating func readString(tag: TLVTag? = nil) throws(TLVError) -> String { try read(tag: tag) }
    /// Reads an octet string.
    public mutating func readBytes(tag: TLVTag? = nil) throws(TLVError) -> [UInt8] { try read(tag: tag) }

    /// Reads a null element.
    public mutating func readNull(tag: TLVTag? = nil) throws(TLVError) {
        _ = try requireElement(tag: tag)
        let element = try readPrimitive(expecting: .null)
        guard element.value == .null else {
            throw .typeMismatch(tag: element.tag, expected: .null, found: element.value.type)
        }
    }

    /// Consumes the start of a container of `type`; its members follow.
    public mutating func enterContainer(_ type: TLVContainerType, tag: TLVTag? = nil) throws(TLVError) {
        let header = try requireElement(tag: tag)
        guard header.type == type.elementType else {
            throw .typeMismatch(tag: header.tag, expected: type.elementType, found: header.type)
        }
        _ = try next()
    }

    /// Skips the unread members of the innermost open container and consumes its end, so unknown trailing
    /// members are tolerated. Does nothing when no container is open.
    public mutating func exitContainer() throws(TLVError) {
        guard depth > 0 else { return }
        try skipToEndOfContainer()
    }

    /// Enters a container of `type`, runs `body` on its members, then exits it (skipping members `body`
    /// left unread and closing containers it left open).
    public mutating func readContainer<T>(
        _ type: TLVContainerType,
        tag: TLVTag? = nil,
        _ body: (inout TLVReader) throws(TLVError) -> T
    ) throws(TLVError) -> T {
        try enterContainer(type, tag: tag)
        let inner = depth
        let result = try body(&self)
        while depth >= inner { try exitContainer() }
        return result
    }

    /// Reads an array whose members are each a `T`.
    public mutating func readArray<T: TLVDecodable>(
        of type: T.Type = T.self,
        tag: TLVTag? = nil
    ) throws(TLVError) -> [T] {
        try readContainer(.array, tag: tag) { reader throws(TLVError) in
            var values: [T] = []
            while try reader.peekHeader() != nil { values.append(try T(from: &reader)) }
            return values
        }
    }
}
