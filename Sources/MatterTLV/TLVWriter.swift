import MatterCore

/// Builds TLV bytes element by element, in the minimal encoding the Matter SDK writes.
///
/// Integers take the smallest width that holds them (signedness is kept: write unsigned fields with
/// unsigned Swift types), strings the smallest length field, tags their short form when the number
/// fits in 16 bits.
///
/// ```swift
/// var writer = TLVWriter()
/// writer.putStructure { w in
///     w.put(random, tag: .context(1))            // [UInt8]: octet string
///     w.put(UInt16(0xDC33), tag: .context(2))    // written in 2 bytes
///     w.put(false, tag: .context(4))
/// }
/// send(writer.bytes)
/// ```
///
/// The writer trusts its caller: it does not check that array members are anonymous or structure
/// members tagged (``TLVReader`` rejects both), and ``bytes`` is incomplete while a container is open.
public struct TLVWriter: Sendable {
    private var output: ByteWriter
    /// Number of containers started and not yet ended.
    public private(set) var openContainers = 0

    /// An empty writer; `capacity` is a hint for the expected size in bytes.
    public init(capacity: Int = 64) {
        output = ByteWriter(capacity: capacity)
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { output.bytes }

    /// Writes `value` as one element with `tag`, as its ``TLVEncodable`` conformance says.
    public mutating func put<T: TLVEncodable>(_ value: T, tag: TLVTag = .anonymous) {
        value.encode(to: &self, tag: tag)
    }

    /// Writes `element` (and the members of a container) with its own tag.
    public mutating func put(_ element: TLVElement) {
        putValue(element.value, tag: element.tag)
    }

    /// Writes a signed integer in the smallest of 1, 2, 4 or 8 bytes.
    public mutating func putSigned(_ value: Int64, tag: TLVTag = .anonymous) {
        let size = TLVControl.fieldSize(forSigned: value)
        writeHeader(TLVControl.signedInteger | size, tag: tag)
        switch size {
        case 0: output.writeLE(Int8(truncatingIfNeeded: value))
        case 1: output.writeLE(Int16(truncatingIfNeeded: value))
        case 2: output.writeLE(Int32(truncatingIfNeeded: value))
        default: output.writeLE(value)
        }
    }

    /// Writes an unsigned integer in the smallest of 1, 2, 4 or 8 bytes.
    public mutating func putUnsigned(_ value: UInt64, tag: TLVTag = .anonymous) {
        let size = TLVControl.fieldSize(forUnsigned: value)
        writeHeader(TLVControl.unsignedInteger | size, tag: tag)
        writeUnsigned(value, sizeCode: size)
    }

    /// Writes an octet string (for `[UInt8]` itself, ``put(_:tag:)`` does the same).
    public mutating func putBytes<C: Collection>(_ bytes: C, tag: TLVTag = .anonymous) where C.Element == UInt8 {
        writeString(type: TLVControl.octetString, bytes, tag: tag)
    }

    /// Writes a null element.
    public mutating func putNull(tag: TLVTag = .anonymous) {
        writeHeader(TLVControl.null, tag: tag)
    }

    /// Writes the start of a container; members follow, then ``endContainer()``.
    public mutating func startContainer(_ type: TLVContainerType, tag: TLVTag = .anonymous) {
        writeHeader(type.controlType, tag: tag)
        openContainers += 1
    }

    /// Ends the innermost open container. Does nothing when no container is open.
    public mutating func endContainer() {
        guard openContainers > 0 else { return }
        output.writeUInt8(TLVControl.endOfContainer)
        openContainers -= 1
    }

    /// Writes a container of `type` whose members `body` writes.
    public mutating func putContainer<E: Error>(
        _ type: TLVContainerType,
        tag: TLVTag = .anonymous,
        _ body: (inout TLVWriter) throws(E) -> Void
    ) throws(E) {
        startContainer(type, tag: tag)
        try body(&self)
        endContainer()
    }

    /// Writes a structure whose members `body` writes (tag them, in ascending context-tag order).
    public mutating func putStructure<E: Error>(
        tag: TLVTag = .anonymous,
        _ body: (inout TLVWriter) throws(E) -> Void
    ) throws(E) {
        try putContainer(.structure, tag: tag, body)
    }

    /// Writes an array whose members `body` writes (anonymously).
    public mutating func putArray<E: Error>(
        tag: TLVTag = .anonymous,
        _ body: (inout TLVWriter) throws(E) -> Void
    ) throws(E) {
        try putContainer(.array, tag: tag, body)
    }

    /// Writes a list whose members `body` writes.
    public mutating func putList<E: Error>(
        tag: TLVTag = .anonymous,
        _ body: (inout TLVWriter) throws(E) -> Void
    ) throws(E) {
        try putContainer(.list, tag: tag, body)
    }

    /// Writes an array with one anonymous member per value of `values`.
    public mutating func putArray<S: Sequence>(_ values: S, tag: TLVTag = .anonymous) where S.Element: TLVEncodable {
        startContainer(.array, tag: tag)
        for value in values { put(value) }
        endContainer()
    }

    // MARK: - Primitives used by the conformances

    mutating func putBool(_ value: Bool, tag: TLVTag) {
        writeHeader(value ? TLVControl.booleanTrue : TLVControl.booleanFalse, tag: tag)
    }

    mutating func putFloat(_ value: Float, tag: TLVTag) {
        writeHeader(TLVControl.float32, tag: tag)
        output.writeLE(value.bitPattern)
    }

    mutating func putDouble(_ value: Double, tag: TLVTag) {
        writeHeader(TLVControl.float64, tag: tag)
        output.writeLE(value.bitPattern)
    }

    mutating func putString(_ value: String, tag: TLVTag) {
        writeString(type: TLVControl.utf8String, value.utf8, tag: tag)
    }

    mutating func putValue(_ value: TLVValue, tag: TLVTag) {
        switch value {
        case .signed(let v): putSigned(v, tag: tag)
        case .unsigned(let v): putUnsigned(v, tag: tag)
        case .bool(let v): putBool(v, tag: tag)
        case .float(let v): putFloat(v, tag: tag)
        case .double(let v): putDouble(v, tag: tag)
        case .utf8(let v): putString(v, tag: tag)
        case .bytes(let v): putBytes(v, tag: tag)
        case .null: putNull(tag: tag)
        case .structure(let members): putMembers(members, of: .structure, tag: tag)
        case .array(let members): putMembers(members, of: .array, tag: tag)
        case .list(let members): putMembers(members, of: .list, tag: tag)
        }
    }

    // MARK: - Encoding

    private mutating func putMembers(_ members: [TLVElement], of type: TLVContainerType, tag: TLVTag) {
        startContainer(type, tag: tag)
        for member in members { put(member) }
        endContainer()
    }

    /// Writes the control byte (`elementType` with the tag's control bits) and the tag bytes.
    private mutating func writeHeader(_ elementType: UInt8, tag: TLVTag) {
        switch tag {
        case .anonymous:
            output.writeUInt8(TLVControl.anonymous | elementType)
        case .context(let number):
            output.writeUInt8(TLVControl.contextSpecific | elementType)
            output.writeUInt8(number)
        case .commonProfile(let number):
            writeProfileTag(number, short: TLVControl.commonProfile2, long: TLVControl.commonProfile4, elementType)
        case .implicitProfile(let number):
            writeProfileTag(number, short: TLVControl.implicitProfile2, long: TLVControl.implicitProfile4, elementType)
        case .fullyQualified(let vendorID, let profile, let number):
            let short = UInt16(exactly: number)
            output.writeUInt8((short == nil ? TLVControl.fullyQualified8 : TLVControl.fullyQualified6) | elementType)
            output.writeLE(vendorID)
            output.writeLE(profile)
            if let short { output.writeLE(short) } else { output.writeLE(number) }
        }
    }

    private mutating func writeProfileTag(_ number: UInt32, short: UInt8, long: UInt8, _ elementType: UInt8) {
        if let number16 = UInt16(exactly: number) {
            output.writeUInt8(short | elementType)
            output.writeLE(number16)
        } else {
            output.writeUInt8(long | elementType)
            output.writeLE(number)
        }
    }

    private mutating func writeString<C: Collection>(type: UInt8, _ bytes: C, tag: TLVTag) where C.Element == UInt8 {
        let length = UInt64(bytes.count)
        let size = TLVControl.fieldSize(forUnsigned: length)
        writeHeader(type | size, tag: tag)
        writeUnsigned(length, sizeCode: size)
        output.writeBytes(bytes)
    }

    private mutating func writeUnsigned(_ value: UInt64, sizeCode: UInt8) {
        switch sizeCode {
        case 0: output.writeLE(UInt8(truncatingIfNeeded: value))
        case 1: output.writeLE(UInt16(truncatingIfNeeded: value))
        case 2: output.writeLE(UInt32(truncatingIfNeeded: value))
        default: output.writeLE(value)
        }
    }
}
