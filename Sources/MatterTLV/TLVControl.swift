/// Control-byte constants of the TLV encoding (Matter core specification, Appendix A).
///
/// A control byte is `tagControl (bits 7-5) | elementType (bits 4-0)`. For integers and strings the low
/// two bits of the element type are the field size: 0 → 1 byte, 1 → 2, 2 → 4, 3 → 8.
enum TLVControl {
    static let elementTypeMask: UInt8 = 0x1F
    static let tagControlMask: UInt8 = 0xE0
    static let fieldSizeMask: UInt8 = 0x03

    // Element types (the value of the low five bits).
    static let signedInteger: UInt8 = 0x00  // 0x00...0x03
    static let unsignedInteger: UInt8 = 0x04  // 0x04...0x07
    static let booleanFalse: UInt8 = 0x08
    static let booleanTrue: UInt8 = 0x09
    static let float32: UInt8 = 0x0A
    static let float64: UInt8 = 0x0B
    static let utf8String: UInt8 = 0x0C  // 0x0C...0x0F
    static let octetString: UInt8 = 0x10  // 0x10...0x13
    static let null: UInt8 = 0x14
    static let structure: UInt8 = 0x15
    static let array: UInt8 = 0x16
    static let list: UInt8 = 0x17
    /// End of container: the whole control byte is exactly this value (anonymous).
    static let endOfContainer: UInt8 = 0x18
    /// Element types from here to 0x1F are reserved and rejected.
    static let firstReserved: UInt8 = 0x19

    // Tag controls (the value of the high three bits).
    static let anonymous: UInt8 = 0x00
    static let contextSpecific: UInt8 = 0x20
    static let commonProfile2: UInt8 = 0x40
    static let commonProfile4: UInt8 = 0x60
    static let implicitProfile2: UInt8 = 0x80
    static let implicitProfile4: UInt8 = 0xA0
    static let fullyQualified6: UInt8 = 0xC0
    static let fullyQualified8: UInt8 = 0xE0

    /// Field-size code (0...3) for the smallest of 1, 2, 4 or 8 bytes that holds `value`.
    static func fieldSize(forUnsigned value: UInt64) -> UInt8 {
        if value <= UInt64(UInt8.max) { return 0 }
        if value <= UInt64(UInt16.max) { return 1 }
        if value <= UInt64(UInt32.max) { return 2 }
        return 3
    }

    /// Field-size code (0...3) for the smallest two's-complement width that holds `value`.
    static func fieldSize(forSigned value: Int64) -> UInt8 {
        if Int8(exactly: value) != nil { return 0 }
        if Int16(exactly: value) != nil { return 1 }
        if Int32(exactly: value) != nil { return 2 }
        return 3
    }
}
