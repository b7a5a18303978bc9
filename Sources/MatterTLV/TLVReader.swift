import MatterCore

/// Reads TLV bytes one token at a time, validating as it goes, without building a tree.
///
/// ```swift
/// var reader = TLVReader(payload)
/// try reader.enterContainer(.structure)
/// let random = try reader.readBytes(tag: .context(1))
/// let sessionID = try reader.readUInt16(tag: .context(2))
/// let passcodeID = try reader.readUInt16(tag: .context(3))
/// let hasParameters = try reader.readBool(tag: .context(4))
/// try reader.exitContainer()        // skips members it did not read
/// try reader.expectEnd()
/// ```
///
/// Integers of any encoded width are accepted; typed reads range-check against the requested Swift type
/// and keep signed and unsigned apart. Every malformation throws a ``TLVError``; after an error the
/// reader's position is unspecified and it should be discarded.
///
/// The reader reads a sequence of top-level elements: ``next()`` returns nil at the end of the input.
/// Use ``expectEnd()`` (or ``TLVElement/decode(_:)``) when exactly one element is allowed.
public struct TLVReader: Sendable {
    /// The deepest container nesting accepted: the 33rd nested container throws
    /// ``TLVError/nestingTooDeep(offset:limit:)``.
    public static let maximumDepth = 32

    /// What ``peekHeader()`` reports about the next element without consuming it.
    public struct Header: Hashable, Sendable {
        /// The element's tag.
        public let tag: TLVTag
        /// The element's kind.
        public let type: TLVElementType
        /// Offset of the element's control byte.
        public let offset: Int
    }

    private var input: ByteReader
    private var containers: [TLVContainerType] = []

    /// A reader positioned at the first byte of `bytes`.
    public init(_ bytes: [UInt8]) {
        input = ByteReader(bytes)
    }

    /// Offset of the next unread byte.
    public var offset: Int { input.offset }
    /// Number of containers entered and not yet closed.
    public var depth: Int { containers.count }
    /// The innermost open container, or nil at top level.
    public var currentContainer: TLVContainerType? { containers.last }

    /// Reads the next token: a primitive element, a container start, or a container end.
    ///
    /// Returns nil at the end of the input when no container is open.
    public mutating func next() throws(TLVError) -> TLVToken? {
        guard let header = try readRawHeader() else { return nil }
        guard case .element(let start, let typeBits, let tag) = header else {
            // readRawHeader only reports an end when a container is open.
            guard let closed = containers.popLast() else { throw .endOfContainerOutsideContainer(offset: offset) }
            return .containerEnd(type: closed)
        }
        let sizeCode = typeBits & TLVControl.fieldSizeMask
        switch typeBits {
        case 0x00...0x03:
            return .element(tag: tag, value: .signed(try readSigned(sizeCode: sizeCode, start: start)))
        case 0x04...0x07:
            return .element(tag: tag, value: .unsigned(try readUnsigned(sizeCode: sizeCode, start: start)))
        case TLVControl.booleanFalse:
            return .element(tag: tag, value: .bool(false))
        case TLVControl.booleanTrue:
            return .element(tag: tag, value: .bool(true))
        case TLVControl.float32:
            return .element(tag: tag, value: .float(Float(bitPattern: try readLE(UInt32.self, start: start))))
        case TLVControl.float64:
            return .element(tag: tag, value: .double(Double(bitPattern: try readLE(UInt64.self, start: start))))
        case 0x0C...0x0F:
            let raw = try readString(sizeCode: sizeCode, start: start)
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .element(tag: tag, value: .utf8(text))
        case 0x10...0x13:
            return .element(tag: tag, value: .bytes(try readString(sizeCode: sizeCode, start: start)))
        case TLVControl.null:
            return .element(tag: tag, value: .null)
        default:
            let type: TLVContainerType
            switch typeBits {
            case TLVControl.structure: type = .structure
            case TLVControl.array: type = .array
            default: type = .list  // readRawHeader lets through only 0x00...0x17 here
            }
            guard containers.count < Self.maximumDepth else {
                throw .nestingTooDeep(offset: start, limit: Self.maximumDepth)
            }
            containers.append(type)
            return .containerStart(tag: tag, type: type)
        }
    }

    /// The tag and kind of the next element, without consuming it.
    ///
    /// Returns nil at the end of the innermost open container, or at the end of the input when no
    /// container is open (tell them apart with ``depth``). Throws if the header itself is malformed.
    public mutating func peekHeader() throws(TLVError) -> Header? {
        let saved = input
        defer { input = saved }
        guard case .element(let start, let typeBits, let tag)? = try readRawHeader(),
            let type = TLVElementType(elementTypeBits: typeBits)
        else { return nil }
        return Header(tag: tag, type: type, offset: start)
    }

    /// Reads the next element whole, containers with all their members.
    ///
    /// Throws ``TLVError/missingElement(tag:)`` at the end of a container, and ``TLVError/truncated(offset:)``
    /// at the end of the input.
    public mutating func readElement() throws(TLVError) -> TLVElement {
        _ = try requireElement(tag: nil)
        guard let token = try next() else { throw .truncated(offset: offset) }
        return try element(startingWith: token)
    }

    /// Skips the next element, containers with all their members (still validating them).
    public mutating func skipElement() throws(TLVError) {
        _ = try requireElement(tag: nil)
        guard case .containerStart? = try next() else { return }
        try skipToEndOfContainer()
    }

    /// Throws ``TLVError/trailingBytes(offset:count:)`` unless every byte has been read, and
    /// ``TLVError/containerNotClosed(offset:openContainers:)`` if a container is still open.
    public mutating func expectEnd() throws(TLVError) {
        guard containers.isEmpty else { throw .containerNotClosed(offset: offset, openContainers: containers.count) }
        guard input.isAtEnd else { throw .trailingBytes(offset: offset, count: input.remaining) }
    }

    // MARK: - Internals

    private enum RawHeader {
        case endOfContainer
        case element(start: Int, typeBits: UInt8, tag: TLVTag)
    }

    /// Reads a control byte and its tag, validating them against the open container.
    /// Returns nil at the end of the input at top level.
    private mutating func readRawHeader() throws(TLVError) -> RawHeader? {
        let start = input.offset
        if input.isAtEnd {
            guard containers.isEmpty else {
                throw .containerNotClosed(offset: start, openContainers: containers.count)
            }
            return nil
        }
        let control = try readLE(UInt8.self, start: start)
        let typeBits = control & TLVControl.elementTypeMask
        if typeBits >= TLVControl.firstReserved { throw .reservedElementType(offset: start, controlByte: control) }
        if typeBits == TLVControl.endOfContainer {
            guard control == TLVControl.endOfContainer else {
                throw .endOfContainerWithTag(offset: start, controlByte: control)
            }
            guard !containers.isEmpty else { throw .endOfContainerOutsideContainer(offset: start) }
            return .endOfContainer
        }
        let tag = try readTag(control: control & TLVControl.tagControlMask, start: start)
        switch containers.last {
        case .array where tag != .anonymous: throw .taggedMemberInArray(offset: start, tag: tag)
        case .structure where tag == .anonymous: throw .anonymousMemberInStructure(offset: start)
        default: return .element(start: start, typeBits: typeBits, tag: tag)
        }
    }

    private mutating func readTag(control: UInt8, start: Int) throws(TLVError) -> TLVTag {
        switch control {
        case TLVControl.anonymous:
            return .anonymous
        case TLVControl.contextSpecific:
            return .context(try readLE(UInt8.self, start: start))
        case TLVControl.commonProfile2:
            return .commonProfile(UInt32(try readLE(UInt16.self, start: start)))
        case TLVControl.commonProfile4:
            return .commonProfile(try readLE(UInt32.self, start: start))
        case TLVControl.implicitProfile2:
            return .implicitProfile(UInt32(try readLE(UInt16.self, start: start)))
        case TLVControl.implicitProfile4:
            return .implicitProfile(try readLE(UInt32.self, start: start))
        case TLVControl.fullyQualified6:
            let vendorID = try readLE(UInt16.self, start: start)
            let profile = try readLE(UInt16.self, start: start)
            let number = try readLE(UInt16.self, start: start)
            return .fullyQualified(vendorID: vendorID, profile: profile, tag: UInt32(number))
        default:  // TLVControl.fullyQualified8, the last of the eight values of three bits
            let vendorID = try readLE(UInt16.self, start: start)
            let profile = try readLE(UInt16.self, start: start)
            return .fullyQualified(vendorID: vendorID, profile: profile, tag: try readLE(UInt32.self, start: start))
        }
    }

    private mutating func readUnsigned(sizeCode: UInt8, start: Int) throws(TLVError) -> UInt64 {
        switch sizeCode {
        case 0: UInt64(try readLE(UInt8.self, start: start))
        case 1: UInt64(try readLE(UInt16.self, start: start))
        case 2: UInt64(try readLE(UInt32.self, start: start))
        default: try readLE(UInt64.self, start: start)
        }
    }

    private mutating func readSigned(sizeCode: UInt8, start: Int) throws(TLVError) -> Int64 {
        switch sizeCode {
        case 0: Int64(Int8(bitPattern: try readLE(UInt8.self, start: start)))
        case 1: Int64(Int16(bitPattern: try readLE(UInt16.self, start: start)))
        case 2: Int64(Int32(bitPattern: try readLE(UInt32.self, start: start)))
        default: Int64(bitPattern: try readLE(UInt64.self, start: start))
        }
    }

    /// Reads a length field of the given size, then that many bytes.
    private mutating func readString(sizeCode: UInt8, start: Int) throws(TLVError) -> [UInt8] {
        let length = try readUnsigned(sizeCode: sizeCode, start: start)
        // Compare as UInt64: an 8-byte length may not fit in Int.
        guard length <= UInt64(input.remaining) else {
            throw .lengthExceedsInput(offset: start, length: length, available: input.remaining)
        }
        do {
            return try input.readBytes(Int(length))
        } catch {
            throw .truncated(offset: start)
        }
    }

    private mutating func readLE<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, start: Int) throws(TLVError) -> T {
        do {
            return try input.readLE(T.self)
        } catch {
            throw .truncated(offset: start)
        }
    }

    /// Builds the element that `token` starts, reading the members of a container.
    private mutating func element(startingWith token: TLVToken) throws(TLVError) -> TLVElement {
        switch token {
        case .element(let tag, let value):
            return TLVElement(tag: tag, value)
        case .containerEnd:
            throw .missingElement(tag: nil)
        case .containerStart(let tag, let type):
            var members: [TLVElement] = []
            while true {
                guard let member = try next() else {
                    throw .containerNotClosed(offset: offset, openContainers: containers.count + 1)
                }
                if case .containerEnd = member { break }
                members.append(try element(startingWith: member))
            }
            switch type {
            case .structure: return TLVElement(tag: tag, .structure(members))
            case .array: return TLVElement(tag: tag, .array(members))
            case .list: return TLVElement(tag: tag, .list(members))
            }
        }
    }

    /// Reads tokens until the innermost open container is closed.
    mutating func skipToEndOfContainer() throws(TLVError) {
        let target = containers.count - 1
        while containers.count > target {
            guard try next() != nil else {
                throw .containerNotClosed(offset: offset, openContainers: containers.count)
            }
        }
    }

    /// The header of the next element, which must exist and, when `tag` is given, carry that tag.
    mutating func requireElement(tag: TLVTag?) throws(TLVError) -> Header {
        guard let header = try peekHeader() else {
            if containers.isEmpty { throw .truncated(offset: offset) }
            throw .missingElement(tag: tag)
        }
        if let tag, header.tag != tag { throw .unexpectedTag(expected: tag, found: header.tag) }
        return header
    }

    /// Reads the next element, which must be primitive, for a conversion expecting `expected`.
    mutating func readPrimitive(expecting expected: TLVElementType) throws(TLVError) -> TLVElement {
        let header = try requireElement(tag: nil)
        guard !header.type.isContainer, case .element(let tag, let value)? = try next() else {
            throw .typeMismatch(tag: header.tag, expected: expected, found: header.type)
        }
        return TLVElement(tag: tag, value)
    }
}
