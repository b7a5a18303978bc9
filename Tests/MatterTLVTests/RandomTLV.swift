import MatterCore
import MatterTLV
import MatterTestSupport

/// Generates random, well-formed element trees: every value type and tag form, structure members
/// tagged, array members anonymous, list members either. NaN floats are left out (they are never equal
/// to themselves), every other bit pattern may appear.
struct RandomTLV {
    var rng: SplitMix64
    let maxDepth: Int

    init(seed: UInt64, maxDepth: Int = 4) {
        rng = SplitMix64(seed: seed)
        self.maxDepth = maxDepth
    }

    mutating func element() -> TLVElement {
        element(in: nil, depth: 0)
    }

    private mutating func element(in parent: TLVContainerType?, depth: Int) -> TLVElement {
        TLVElement(tag: tag(in: parent), value(depth: depth))
    }

    private mutating func value(depth: Int) -> TLVValue {
        switch rng.below(depth >= maxDepth ? 8 : 11) {
        case 0: return .signed(signed())
        case 1: return .unsigned(unsigned())
        case 2: return .bool(rng.chance(oneIn: 2))
        case 3: return .float(float())
        case 4: return .double(double())
        case 5: return .utf8(string())
        case 6: return .bytes((0..<length()).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case 7: return .null
        case 8: return .structure(members(of: .structure, depth: depth))
        case 9: return .array(members(of: .array, depth: depth))
        default: return .list(members(of: .list, depth: depth))
        }
    }

    private mutating func members(of type: TLVContainerType, depth: Int) -> [TLVElement] {
        (0..<rng.below(6)).map { _ in element(in: type, depth: depth + 1) }
    }

    private mutating func tag(in parent: TLVContainerType?) -> TLVTag {
        switch parent {
        case .array: return .anonymous
        case .structure: return taggedTag()
        case .list, nil: return rng.chance(oneIn: 3) ? .anonymous : taggedTag()
        }
    }

    private mutating func taggedTag() -> TLVTag {
        switch rng.below(5) {
        case 0, 1: return .context(UInt8(truncatingIfNeeded: rng.next()))
        case 2: return .commonProfile(profileTagNumber())
        case 3: return .implicitProfile(profileTagNumber())
        default:
            return .fullyQualified(
                vendorID: UInt16(truncatingIfNeeded: rng.next()),
                profile: UInt16(truncatingIfNeeded: rng.next()),
                tag: profileTagNumber()
            )
        }
    }

    /// Half the time small enough for the 2-byte form.
    private mutating func profileTagNumber() -> UInt32 {
        let bits = UInt32(truncatingIfNeeded: rng.next())
        return rng.chance(oneIn: 2) ? bits & 0xFFFF : bits
    }

    /// Uniform over a randomly chosen width, so every encoded width appears; boundaries now and then.
    private mutating func unsigned() -> UInt64 {
        let boundaries: [UInt64] = [0, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0xFFFF_FFFF, 0x1_0000_0000, .max]
        if rng.chance(oneIn: 8) { return boundaries[rng.below(boundaries.count)] }
        let width = [8, 16, 32, 64][rng.below(4)]
        return width == 64 ? rng.next() : rng.next() & ((1 << UInt64(width)) - 1)
    }

    private mutating func signed() -> Int64 {
        let boundaries: [Int64] = [0, -1, 127, 128, -128, -129, 32767, -32769, Int64(Int32.min), .min, .max]
        if rng.chance(oneIn: 8) { return boundaries[rng.below(boundaries.count)] }
        let shift = UInt64(64 - [8, 16, 32, 64][rng.below(4)])
        return Int64(bitPattern: rng.next() << shift) >> Int64(shift)  // sign-extended
    }

    private mutating func float() -> Float {
        let specials: [Float] = [
            0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 17.9,
        ]
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        return rng.chance(oneIn: 6) || value.isNaN ? specials[rng.below(specials.count)] : value
    }

    private mutating func double() -> Double {
        let specials: [Double] = [
            0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 17.9,
        ]
        let value = Double(bitPattern: rng.next())
        return rng.chance(oneIn: 6) || value.isNaN ? specials[rng.below(specials.count)] : value
    }

    /// Mostly short; one in twenty needs a 2-byte length field.
    private mutating func length() -> Int {
        rng.chance(oneIn: 20) ? 256 + rng.below(64) : rng.below(12)
    }

    /// Unicode scalars of every UTF-8 length, NUL included, surrogates excluded.
    private mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length() {
            let ranges: [ClosedRange<UInt32>] = [
                0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF,
            ]
            let range = ranges[rng.below(ranges.count)]
            let code = range.lowerBound + UInt32(rng.below(Int(range.upperBound - range.lowerBound) + 1))
            if let scalar = Unicode.Scalar(code) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

/// An encoder written independently of `TLVWriter`. Widening, it picks random, valid but non-minimal
/// widths for integers, length fields and profile tags, to check that the reader accepts every width;
/// otherwise it writes the minimal encoding, a reference for the writer.
struct ReferenceTLVEncoder {
    var rng: SplitMix64
    let widen: Bool
    private(set) var bytes: [UInt8] = []

    init(seed: UInt64, widen: Bool) {
        rng = SplitMix64(seed: seed)
        self.widen = widen
    }

    mutating func write(_ element: TLVElement) {
        switch element.value {
        case .signed(let v):
            let size = widerSize(from: minimalSize(signed: v))
            header(0x00 | size, element.tag)
            little(UInt64(bitPattern: v), size: size)
        case .unsigned(let v):
            let size = widerSize(from: minimalSize(unsigned: v))
            header(0x04 | size, element.tag)
            little(v, size: size)
        case .bool(let v): header(v ? 0x09 : 0x08, element.tag)
        case .float(let v):
            header(0x0A, element.tag)
            little(UInt64(v.bitPattern), size: 2)
        case .double(let v):
            header(0x0B, element.tag)
            little(v.bitPattern, size: 3)
        case .utf8(let v): string(0x0C, Array(v.utf8), element.tag)
        case .bytes(let v): string(0x10, v, element.tag)
        case .null: header(0x14, element.tag)
        case .structure(let members): container(0x15, members, element.tag)
        case .array(let members): container(0x16, members, element.tag)
        case .list(let members): container(0x17, members, element.tag)
        }
    }

    private mutating func container(_ type: UInt8, _ members: [TLVElement], _ tag: TLVTag) {
        header(type, tag)
        for member in members { write(member) }
        bytes.append(0x18)
    }

    private mutating func string(_ type: UInt8, _ content: [UInt8], _ tag: TLVTag) {
        let size = widerSize(from: minimalSize(unsigned: UInt64(content.count)))
        header(type | size, tag)
        little(UInt64(content.count), size: size)
        bytes += content
    }

    private mutating func header(_ type: UInt8, _ tag: TLVTag) {
        switch tag {
        case .anonymous:
            bytes.append(type)
        case .context(let n):
            bytes += [0x20 | type, n]
        case .commonProfile(let n):
            profile(n, control: 0x40, type)
        case .implicitProfile(let n):
            profile(n, control: 0x80, type)
        case .fullyQualified(let vendorID, let profile, let n):
            let long = n > 0xFFFF || (widen && rng.chance(oneIn: 2))
            bytes.append((long ? 0xE0 : 0xC0) | type)
            little(UInt64(vendorID), size: 1)
            little(UInt64(profile), size: 1)
            little(UInt64(n), size: long ? 2 : 1)
        }
    }

    /// `control` is the 2-byte form; the 4-byte form is `control + 0x20`.
    private mutating func profile(_ n: UInt32, control: UInt8, _ type: UInt8) {
        let long = n > 0xFFFF || (widen && rng.chance(oneIn: 2))
        bytes.append((long ? control + 0x20 : control) | type)
        little(UInt64(n), size: long ? 2 : 1)
    }

    private mutating func widerSize(from minimal: UInt8) -> UInt8 {
        widen ? minimal + UInt8(rng.below(4 - Int(minimal))) : minimal
    }

    private func minimalSize(unsigned v: UInt64) -> UInt8 {
        v <= 0xFF ? 0 : v <= 0xFFFF ? 1 : v <= 0xFFFF_FFFF ? 2 : 3
    }

    private func minimalSize(signed v: Int64) -> UInt8 {
        Int8(exactly: v) != nil ? 0 : Int16(exactly: v) != nil ? 1 : Int32(exactly: v) != nil ? 2 : 3
    }

    /// `value` little-endian in 1 << size bytes.
    private mutating func little(_ value: UInt64, size: UInt8) {
        for i in 0..<(1 << Int(size)) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
}
