/// One parsed DER element (tag, length, contents), as read by ``DERParser``.
///
/// Only what X.509, PKCS#10 and CMS need is supported: single-byte tags and definite lengths in their
/// minimal form (DER). `encoded` keeps the element's exact bytes so signed parts can be hashed as received.
struct DERElement: Sendable {
    let tag: UInt8
    let contents: [UInt8]
    /// The whole element: identifier, length and contents.
    let encoded: [UInt8]

    var isConstructed: Bool { tag & 0x20 != 0 }
}

/// ASN.1 universal and context tags used here.
enum DERTag {
    static let boolean: UInt8 = 0x01
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let null: UInt8 = 0x05
    static let objectIdentifier: UInt8 = 0x06
    static let utf8String: UInt8 = 0x0C
    static let printableString: UInt8 = 0x13
    static let ia5String: UInt8 = 0x16
    static let utcTime: UInt8 = 0x17
    static let generalizedTime: UInt8 = 0x18
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31

    /// `[n]` constructed, context-specific (EXPLICIT tagging, or IMPLICIT of a constructed type).
    static func contextConstructed(_ number: UInt8) -> UInt8 { 0xA0 | number }
    /// `[n]` primitive, context-specific (IMPLICIT of a primitive type).
    static func contextPrimitive(_ number: UInt8) -> UInt8 { 0x80 | number }
}

/// Strict DER reading. Every failure is a ``CredentialsError/malformedDER(what:reason:)`` naming `what`.
struct DERParser {
    let what: String
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
        self.offset = 0
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// Parses exactly one element spanning all of `bytes`.
    static func parseSingle(_ bytes: [UInt8], what: String) throws(CredentialsError) -> DERElement {
        var parser = DERParser(bytes, what: what)
        let element = try parser.next()
        guard parser.isAtEnd else {
            throw .malformedDER(what: what, reason: "\(bytes.count - parser.offset) trailing byte(s) after the element")
        }
        return element
    }

    /// Reads the next element.
    mutating func next() throws(CredentialsError) -> DERElement {
        let start = offset
        guard offset < bytes.count else { throw fail("an element is missing (input ends at offset \(offset))") }
        let tag = bytes[offset]
        offset += 1
        guard tag & 0x1F != 0x1F else { throw fail("multi-byte tag at offset \(start) is not supported") }
        guard offset < bytes.count else { throw fail("truncated length at offset \(offset)") }
        let first = bytes[offset]
        offset += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count > 0 else { throw fail("indefinite length at offset \(start) is not DER") }
            guard count <= 3 else { throw fail("length field of \(count) bytes at offset \(start) is too long") }
            guard bytes.count - offset >= count else { throw fail("truncated length at offset \(offset)") }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[offset])
                offset += 1
            }
            guard length >= 0x80, length >> (8 * (count - 1)) != 0 else {
                throw fail("non-minimal length encoding at offset \(start)")
            }
        }
        guard bytes.count - offset >= length else {
            throw fail("element at offset \(start) declares \(length) bytes but only \(bytes.count - offset) remain")
        }
        let contents = Array(bytes[offset..<(offset + length)])
        offset += length
        return DERElement(tag: tag, contents: contents, encoded: Array(bytes[start..<offset]))
    }

    /// Reads the next element and checks its tag.
    mutating func next(_ tag: UInt8, _ name: String) throws(CredentialsError) -> DERElement {
        let element = try next()
        guard element.tag == tag else {
            throw fail("\(name): expected tag 0x\(hexByte(tag)), found 0x\(hexByte(element.tag))")
        }
        return element
    }

    /// Reads the next element only if it carries `tag`.
    mutating func optional(_ tag: UInt8) throws(CredentialsError) -> DERElement? {
        guard offset < bytes.count, bytes[offset] == tag else { return nil }
        return try next()
    }

    func expectEnd(_ name: String) throws(CredentialsError) {
        guard isAtEnd else { throw fail("\(name) has unexpected trailing elements") }
    }

    func fail(_ reason: String) -> CredentialsError { .malformedDER(what: what, reason: reason) }
}

extension DERElement {
    /// A parser over this element's contents (for SEQUENCE, SET and EXPLICIT wrappers).
    func contentsParser(_ what: String) -> DERParser { DERParser(contents, what: what) }

    /// All direct children of a constructed element.
    func children(_ what: String) throws(CredentialsError) -> [DERElement] {
        var parser = contentsParser(what)
        var out: [DERElement] = []
        while !parser.isAtEnd { out.append(try parser.next()) }
        return out
    }

    /// The value of a non-negative INTEGER that fits in 64 bits.
    func unsignedInteger(_ what: String) throws(CredentialsError) -> UInt64 {
        let magnitude = try integerMagnitude(what)
        guard magnitude.count <= 8 else { throw .malformedDER(what: what, reason: "integer too large") }
        return magnitude.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The big-endian magnitude of a non-negative INTEGER, without the sign byte; checks minimal encoding.
    func integerMagnitude(_ what: String) throws(CredentialsError) -> [UInt8] {
        guard tag == DERTag.integer, let first = contents.first else {
            throw .malformedDER(what: what, reason: "expected a non-empty INTEGER")
        }
        guard first & 0x80 == 0 else { throw .malformedDER(what: what, reason: "negative INTEGER") }
        if contents.count > 1, first == 0, contents[1] & 0x80 == 0 {
            throw .malformedDER(what: what, reason: "INTEGER is not minimally encoded")
        }
        return Array(contents.drop { $0 == 0 })
    }

    /// The bytes of a BIT STRING with no unused bits (keys, signatures).
    func bitStringBytes(_ what: String) throws(CredentialsError) -> [UInt8] {
        guard tag == DERTag.bitString, contents.first == 0 else {
            throw .malformedDER(what: what, reason: "expected a BIT STRING with no unused bits")
        }
        return Array(contents.dropFirst())
    }
}

func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
