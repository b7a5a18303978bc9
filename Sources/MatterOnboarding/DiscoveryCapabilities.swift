/// How a commissionable device can be discovered (the QR code's 8-bit "rendezvous information").
///
/// Producers set only the known bits (``known``); parsers keep whatever they read and validation in
/// consume mode ignores unknown bits, as the SDK does.
public struct DiscoveryCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: Wi-Fi soft access point.
    public static let softAP = DiscoveryCapabilities(rawValue: 0x01)
    /// Bit 1: Bluetooth Low Energy.
    public static let ble = DiscoveryCapabilities(rawValue: 0x02)
    /// Bit 2: already on the IP network (DNS-SD).
    public static let onNetwork = DiscoveryCapabilities(rawValue: 0x04)
    /// Bit 3: Wi-Fi Public Action Frame.
    public static let wifiPAF = DiscoveryCapabilities(rawValue: 0x08)
    /// Bit 4: NFC.
    public static let nfc = DiscoveryCapabilities(rawValue: 0x10)
    /// Bit 5: Thread.
    public static let thread = DiscoveryCapabilities(rawValue: 0x20)

    /// Every bit this implementation knows.
    public static let known: DiscoveryCapabilities = [.softAP, .ble, .onNetwork, .wifiPAF, .nfc, .thread]

    /// Bits outside ``known``.
    public var unknownBits: UInt8 { rawValue & ~Self.known.rawValue }

    /// Names of the set bits, e.g. `BLE, on-network`; unknown bits as hex; `none` when empty.
    public var description: String {
        let names: [(DiscoveryCapabilities, String)] = [
            (.softAP, "SoftAP"), (.ble, "BLE"), (.onNetwork, "on-network"),
            (.wifiPAF, "Wi-Fi PAF"), (.nfc, "NFC"), (.thread, "Thread"),
        ]
        var parts = names.filter { contains($0.0) }.map(\.1)
        if unknownBits != 0 { parts.append("unknown 0x" + String(unknownBits, radix: 16)) }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
