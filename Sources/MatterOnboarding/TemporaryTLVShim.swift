// TEMPORARY: replaced by MatterTLV
//
// A minimal, internal stand-in for the MatterTLV API described in the project's TLV contract
// (`TLVTag`, `TLVValue`, `TLVElement`, `TLVError`), so this module builds while MatterTLV is being
// written. Same type and member names as the contract: deleting this file makes the module compile
// against the real MatterTLV (already imported where used) unchanged. Nothing here is public.

/// A TLV tag (contract subset: every case exists, all are encoded and decoded).
enum TLVTag: Hashable, Sendable {
    case anonymous
    case context(UInt8)
    case commonProfile(UInt32)
    case implicitProfile(UInt32)
    case fullyQualified(vendorID: UInt16, profile: UInt16, tag: UInt32)
}

/// A TLV value.
indirect enum TLVValue: Hashable, Sendable {
    case signed(Int64)
    case unsigned(UInt64)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case utf8(String)
    case bytes([UInt8])
    case null
    case structure([TLVElement])
    case array([TLVElement])
    case list([TLVElement])
}

/// Why TLV bytes could not be decoded (shim's own cases; the real module has its own).
enum TLVError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(offset: Int)
    case invalidElementType(UInt8, offset: Int)
    case unexpectedEndOfContainer(offset: Int)
    case invalidUTF8(offset: Int)
    case trailingBytes(count: Int)
    case nestingTooDeep

    var description: String {
        switch self {
        case .truncated(let offset): "TLV truncated at offset \(offset)"
        case .invalidElementType(let type, let offset):
            "invalid TLV element type 0x\(String(type, radix: 16)) at offset \(offset)"
        case .unexpectedEndOfContainer(let offset): "unexpected end-of-container at offset \(offset)"
        case .invalidUTF8(let offset): "invalid UTF-8 string at offset \(offset)"
        case .trailingBytes(let count): "\(count) byte(s) after the TLV element"
        case .nestingTooDeep: "TLV containers nested too deeply"
        }
    }
}

/// One TLV element: a tag and a value.
struct TLVElement: Hashable, Sendable {
    var tag: TLVTag
    var value: TLVValue

    init(tag: TLVTag = .anonymous, _ value: TLVValue) {
        self.tag = tag
        self.value = value
    }

    /// Decodes exactly one element from `bytes`; trailing bytes are an error.
    static func decode(_ bytes: [UInt8]) throws(TLVError) -> TLVElement {
        var cursor = ShimCursor(bytes: bytes)
        guard let element = try cursor.element(depth: 0) else {
            throw .unexpectedEndOfContainer(offset: 0)
        }
        guard cursor.offset == bytes.count else { throw .trailingBytes(count: bytes.count - cursor.offset) }
        return element
    }

    /// Minimal-width encoding.
    func encoded() -> [UInt8] {
        var out = [UInt8]()
        append(to: &out)
        return out
    }

    /// For structures/lists: the first member with this context tag, or nil.
    subscript(context tag: UInt8) -> TLVElement? {
        switch value {
        case .structure(let members), .list(let members): members.first { $0.tag == .context(tag) }
        default: nil
        }
    }

    private func append(to out: inout [UInt8]) {
        var tagControl: UInt8 = 0
        var tagBytes = [UInt8]()
        switch tag {
        case .anonymous: break
        case .context(let number):
            tagControl = 1
            tagBytes = [number]
        case .commonProfile(let number):
            tagControl = number <= 0xFFFF ? 2 : 3
            tagBytes = shimLittleEndian(UInt64(number), count: number <= 0xFFFF ? 2 : 4)
        case .implicitProfile(let number):
            tagControl = number <= 0xFFFF ? 4 : 5
            tagBytes = shimLittleEndian(UInt64(number), count: number <= 0xFFFF ? 2 : 4)
        case .fullyQualified(let vendorID, let profile, let number):
            tagControl = number <= 0xFFFF ? 6 : 7
            tagBytes =
                shimLittleEndian(UInt64(vendorID), count: 2) + shimLittleEndian(UInt64(profile), count: 2)
                + shimLittleEndian(UInt64(number), count: number <= 0xFFFF ? 2 : 4)
        }
        func head(_ type: UInt8) {
            out.append(tagControl << 5 | type)
            out.append(contentsOf: tagBytes)
        }
        func sizeCode(_ count: Int) -> (code: UInt8, width: Int) {
            switch count {
            case ...0xFF: (0, 1)
            case ...0xFFFF: (1, 2)
            case ...0xFFFF_FFFF: (2, 4)
            default: (3, 8)
            }
        }
        switch value {
        case .signed(let v):
            let size: (code: UInt8, width: Int) =
                Int64(Int8.min)...Int64(Int8.max) ~= v
                ? (0, 1)
                : Int64(Int16.min)...Int64(Int16.max) ~= v
                    ? (1, 2)
                    : Int64(Int32.min)...Int64(Int32.max) ~= v ? (2, 4) : (3, 8)
            head(size.code)
            out.append(contentsOf: shimLittleEndian(UInt64(bitPattern: v), count: size.width))
        case .unsigned(let v):
            let size = sizeCode(Int(clamping: v))
            head(0x04 + size.code)
            out.append(contentsOf: shimLittleEndian(v, count: size.width))
        case .bool(let b): head(b ? 0x09 : 0x08)
        case .float(let f):
            head(0x0A)
            out.append(contentsOf: shimLittleEndian(UInt64(f.bitPattern), count: 4))
        case .double(let d):
            head(0x0B)
            out.append(contentsOf: shimLittleEndian(d.bitPattern, count: 8))
        case .utf8(let s):
            let utf8 = Array(s.utf8)
            let size = sizeCode(utf8.count)
            head(0x0C + size.code)
            out.append(contentsOf: shimLittleEndian(UInt64(utf8.count), count: size.width))
            out.append(contentsOf: utf8)
        case .bytes(let b):
            let size = sizeCode(b.count)
            head(0x10 + size.code)
            out.append(contentsOf: shimLittleEndian(UInt64(b.count), count: size.width))
            out.append(contentsOf: b)
        case .null: head(0x14)
        case .structure(let members), .array(let members), .list(let members):
            let type: UInt8 = if case .structure = value { 0x15 } else if case .array = value { 0x16 } else { 0x17 }
            head(type)
            for member in members { member.append(to: &out) }
            out.append(0x18)
        }
    }
}

private func shimLittleEndian(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

private struct ShimCursor {
    let bytes: [UInt8]
    var offset = 0

    mutating func take(_ count: Int) throws(TLVError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw .truncated(offset: offset) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func integer(_ count: Int) throws(TLVError) -> UInt64 {
        try take(count).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads one element, or nil at an end-of-container marker.
    mutating func element(depth: Int) throws(TLVError) -> TLVElement? {
        guard depth < 16 else { throw .nestingTooDeep }
        let start = offset
        let control = try take(1)[0]
        let type = control & 0x1F
        if type == 0x18 {
            guard control == 0x18 else { throw .invalidElementType(control, offset: start) }
            return nil
        }
        let tag: TLVTag
        switch control >> 5 {
        case 0: tag = .anonymous
        case 1: tag = .context(UInt8(try integer(1)))
        case 2: tag = .commonProfile(UInt32(try integer(2)))
        case 3: tag = .commonProfile(UInt32(try integer(4)))
        case 4: tag = .implicitProfile(UInt32(try integer(2)))
        case 5: tag = .implicitProfile(UInt32(try integer(4)))
        default:
            let vendor = UInt16(try integer(2))
            let profile = UInt16(try integer(2))
            let number = UInt32(try integer(control >> 5 == 6 ? 2 : 4))
            tag = .fullyQualified(vendorID: vendor, profile: profile, tag: number)
        }
        let width = 1 << Int(type & 0x03)
        let value: TLVValue
        switch type {
        case 0x00...0x03:
            let raw = try integer(width)
            let shift = UInt64(64 - 8 * width)
            value = .signed(Int64(bitPattern: raw << shift) >> Int64(shift))
        case 0x04...0x07: value = .unsigned(try integer(width))
        case 0x08, 0x09: value = .bool(type == 0x09)
        case 0x0A: value = .float(Float(bitPattern: UInt32(try integer(4))))
        case 0x0B: value = .double(Double(bitPattern: try integer(8)))
        case 0x0C...0x13:
            let length = try integer(width)
            guard length <= UInt64(bytes.count - offset) else { throw .truncated(offset: offset) }
            let data = try take(Int(length))
            if type < 0x10 {
                guard let text = String(validating: data, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                value = .utf8(text)
            } else {
                value = .bytes(data)
            }
        case 0x14: value = .null
        case 0x15...0x17:
            var members = [TLVElement]()
            while let member = try element(depth: depth + 1) { members.append(member) }
            value = type == 0x15 ? .structure(members) : type == 0x16 ? .array(members) : .list(members)
        default: throw .invalidElementType(control, offset: start)
        }
        return TLVElement(tag: tag, value)
    }
}
