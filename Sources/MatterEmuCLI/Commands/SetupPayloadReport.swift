import MatterCore
import MatterOnboarding

/// Text and JSON renderings of a setup payload, shared by `payload parse`, `payload generate` and
/// (later) `device`.
enum SetupPayloadReport {
    static func json(_ payload: SetupPayload) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .uint(UInt64(payload.version))),
            ("vendorID", .uint(UInt64(payload.vendorID.rawValue))),
            ("productID", .uint(UInt64(payload.productID.rawValue))),
            ("commissioningFlow", .string(flowName(payload.commissioningFlow))),
        ]
        if let caps = payload.discoveryCapabilities {
            members.append(("discoveryCapabilities", .array(capabilityNames(caps).map { .string($0) })))
        }
        switch payload.discriminator {
        case .long(let value):
            members.append(("discriminator", .uint(UInt64(value))))
            members.append(("shortDiscriminator", .uint(UInt64(payload.discriminator.shortValue))))
        case .short(let value):
            members.append(("shortDiscriminator", .uint(UInt64(value))))
        }
        members.append(("passcode", .uint(UInt64(payload.passcode))))
        if let serial = payload.serialNumber { members.append(("serialNumber", .string(serial.description))) }
        if let iterations = payload.pbkdfIterations { members.append(("pbkdfIterations", .uint(UInt64(iterations)))) }
        if let salt = payload.pbkdfSalt { members.append(("pbkdfSalt", .string(Hex.encode(salt)))) }
        if let devices = payload.numberOfDevices { members.append(("numberOfDevices", .uint(UInt64(devices)))) }
        if let timeout = payload.commissioningTimeout {
            members.append(("commissioningTimeout", .uint(UInt64(timeout))))
        }
        if !payload.additionalElements.isEmpty {
            members.append(
                (
                    "additionalElements",
                    .array(
                        payload.additionalElements.map { element in
                            .object([("tag", .uint(UInt64(element.tag))), ("value", elementValue(element.value))])
                        })
                ))
        }
        members.append(("valid", .bool(payload.isValid(.consume))))
        if let problem = problem(payload) { members.append(("problem", .string(problem))) }
        return .object(members)
    }

    static func text(_ payload: SetupPayload) -> [String] {
        var lines: [String] = []
        func add(_ name: String, _ value: String) { lines.append(TextLayout.field(name, value)) }
        add("Version", String(payload.version))
        add("Vendor ID", "\(payload.vendorID.rawValue) (\(payload.vendorID))")
        add("Product ID", "\(payload.productID.rawValue) (\(payload.productID))")
        add("Commissioning flow", "\(payload.commissioningFlow.rawValue) (\(payload.commissioningFlow))")
        if let caps = payload.discoveryCapabilities {
            add("Discovery capabilities", "0x\(hexDigits(caps.rawValue, width: 2)) (\(caps))")
        }
        switch payload.discriminator {
        case .long(let value): add("Discriminator", "\(value) (short \(payload.discriminator.shortValue))")
        case .short(let value):
            add("Short discriminator", "\(value) (long \(UInt16(value) << 8)...\(UInt16(value) << 8 | 0xFF))")
        }
        add("Passcode", String(payload.passcode))
        if let serial = payload.serialNumber { add("Serial number", serial.description) }
        if let iterations = payload.pbkdfIterations { add("PBKDF iterations", String(iterations)) }
        if let salt = payload.pbkdfSalt { add("PBKDF salt", Hex.encode(salt)) }
        if let devices = payload.numberOfDevices { add("Number of devices", String(devices)) }
        if let timeout = payload.commissioningTimeout { add("Commissioning timeout", "\(timeout) s") }
        for element in payload.additionalElements {
            add("Optional data tag \(element.tag)", elementText(element.value))
        }
        if let problem = problem(payload) { add("Valid", "no: \(problem)") }
        return lines
    }

    /// Why a decoded payload could not be used to commission, or nil.
    static func problem(_ payload: SetupPayload) -> String? {
        do {
            try payload.validate(.consume)
            return nil
        } catch {
            return error.description
        }
    }

    static func flowName(_ flow: CommissioningFlow) -> String {
        switch flow {
        case .standard: "standard"
        case .userActionRequired: "user-intent"
        case .custom: "custom"
        case .reserved: "reserved"
        }
    }

    static let capabilityTable: [(String, DiscoveryCapabilities)] = [
        ("soft-ap", .softAP), ("ble", .ble), ("on-network", .onNetwork), ("wifi-paf", .wifiPAF), ("nfc", .nfc),
        ("thread", .thread),
    ]

    static func capabilityNames(_ caps: DiscoveryCapabilities) -> [String] {
        capabilityTable.filter { caps.contains($0.1) }.map(\.0)
    }

    private static func elementValue(_ value: OptionalDataElement.Value) -> JSONValue {
        switch value {
        case .utf8(let s): .string(s)
        case .unsigned(let v): .uint(v)
        case .signed(let v): .int(v)
        case .bytes(let b): .string(Hex.encode(b))
        }
    }

    private static func elementText(_ value: OptionalDataElement.Value) -> String {
        switch value {
        case .utf8(let s): "\"\(s)\""
        case .unsigned(let v): String(v)
        case .signed(let v): String(v)
        case .bytes(let b): Hex.encode(b)
        }
    }
}
