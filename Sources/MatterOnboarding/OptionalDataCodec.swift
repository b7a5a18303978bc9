import MatterTLV

/// Maps a QR code's optional TLV data to and from the ``SetupPayload`` fields.
///
/// | Tag | Field | TLV type |
/// |---|---|---|
/// | 0x00 | serialNumber | UTF-8 string or unsigned integer (fits 32 bits) |
/// | 0x01 | pbkdfIterations | unsigned (fits 32 bits) |
/// | 0x02 | pbkdfSalt | octet string |
/// | 0x03 | numberOfDevices | unsigned (fits 8 bits) |
/// | 0x04 | commissioningTimeout | unsigned (fits 16 bits) |
/// | other | additionalElements | UTF-8, signed, unsigned, octet string |
///
/// The data is one anonymous structure of context-tagged members. As in the SDK, members of other
/// types (booleans, floats, null, containers) are skipped. A known tag with the wrong type or a value
/// wider than its field, a non-context tag, or a tag seen twice is an error. Range rules (iterations,
/// salt length...) are left to validation.
enum OptionalDataCodec {
    static let serialNumberTag: UInt8 = 0x00
    static let pbkdfIterationsTag: UInt8 = 0x01
    static let pbkdfSaltTag: UInt8 = 0x02
    static let numberOfDevicesTag: UInt8 = 0x03
    static let commissioningTimeoutTag: UInt8 = 0x04

    /// Reads `bytes` into the optional fields of `payload`.
    static func decode(_ bytes: [UInt8], into payload: inout SetupPayload) throws(OnboardingError) {
        let root: TLVElement
        do {
            root = try TLVElement.decode(bytes)
        } catch {
            throw .invalidOptionalData("not valid TLV (\(error.description))")
        }
        guard root.tag == .anonymous, case .structure(let members) = root.value else {
            throw .invalidOptionalData("expected an anonymous TLV structure")
        }
        var seen = Set<UInt8>()
        for member in members {
            switch member.value {
            case .utf8, .unsigned, .signed, .bytes: break
            default: continue
            }
            guard case .context(let tag) = member.tag else {
                throw .invalidOptionalData("members must have context tags")
            }
            guard seen.insert(tag).inserted else { throw .duplicateOptionalDataTag(tag) }
            switch (tag, member.value) {
            case (serialNumberTag, .utf8(let text)):
                payload.serialNumber = .string(text)
            case (serialNumberTag, .unsigned(let value)):
                payload.serialNumber = .number(try fit(value, "serial number"))
            case (pbkdfIterationsTag, .unsigned(let value)):
                payload.pbkdfIterations = try fit(value, "PBKDF iterations")
            case (pbkdfSaltTag, .bytes(let salt)):
                payload.pbkdfSalt = salt
            case (numberOfDevicesTag, .unsigned(let value)):
                payload.numberOfDevices = try fit(value, "number of devices")
            case (commissioningTimeoutTag, .unsigned(let value)):
                payload.commissioningTimeout = try fit(value, "commissioning timeout")
            case (serialNumberTag...commissioningTimeoutTag, _):
                throw .invalidOptionalData("tag 0x0\(tag) has the wrong TLV type")
            case (_, .utf8(let text)):
                payload.additionalElements.append(OptionalDataElement(tag: tag, .utf8(text)))
            case (_, .unsigned(let value)):
                payload.additionalElements.append(OptionalDataElement(tag: tag, .unsigned(value)))
            case (_, .signed(let value)):
                payload.additionalElements.append(OptionalDataElement(tag: tag, .signed(value)))
            case (_, .bytes(let data)):
                payload.additionalElements.append(OptionalDataElement(tag: tag, .bytes(data)))
            default:
                continue
            }
        }
    }

    /// The TLV bytes for the optional fields of `payload`, or no bytes when it has none. Additional
    /// elements come first in their order, then the known fields by tag (the SDK's order).
    static func encode(_ payload: SetupPayload) -> [UInt8] {
        guard payload.hasOptionalData else { return [] }
        var members = payload.additionalElements.map { element -> TLVElement in
            let value: TLVValue =
                switch element.value {
                case .utf8(let text): .utf8(text)
                case .unsigned(let value): .unsigned(value)
                case .signed(let value): .signed(value)
                case .bytes(let data): .bytes(data)
                }
            return TLVElement(tag: .context(element.tag), value)
        }
        switch payload.serialNumber {
        case .string(let text): members.append(TLVElement(tag: .context(serialNumberTag), .utf8(text)))
        case .number(let value): members.append(TLVElement(tag: .context(serialNumberTag), .unsigned(UInt64(value))))
        case nil: break
        }
        if let value = payload.pbkdfIterations {
            members.append(TLVElement(tag: .context(pbkdfIterationsTag), .unsigned(UInt64(value))))
        }
        if let salt = payload.pbkdfSalt {
            members.append(TLVElement(tag: .context(pbkdfSaltTag), .bytes(salt)))
        }
        if let value = payload.numberOfDevices {
            members.append(TLVElement(tag: .context(numberOfDevicesTag), .unsigned(UInt64(value))))
        }
        if let value = payload.commissioningTimeout {
            members.append(TLVElement(tag: .context(commissioningTimeoutTag), .unsigned(UInt64(value))))
        }
        return TLVElement(tag: .anonymous, .structure(members)).encoded()
    }

    private static func fit<T: FixedWidthInteger>(_ value: UInt64, _ field: String) throws(OnboardingError) -> T {
        guard let fitted = T(exactly: value) else {
            throw .invalidOptionalData("\(field) \(value) does not fit in \(T.bitWidth) bits")
        }
        return fitted
    }
}
