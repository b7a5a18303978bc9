/// The session timing keys every Matter service carries in TXT (`SII`, `SAI`, `SAT`), in milliseconds,
/// as advertised: a nil field is not advertised, and peers then use the defaults below. (The values a
/// transport applies are `MatterTransport.MRPParameters`.)
package struct MRPAdvertisement: Sendable, Hashable {
    /// Largest `SII`/`SAI` value (one hour).
    package static let maxInterval: UInt32 = 3_600_000
    /// Peer default for an absent `SII`.
    package static let defaultIdleInterval: UInt32 = 500
    /// Peer default for an absent `SAI`.
    package static let defaultActiveInterval: UInt32 = 300
    /// Peer default for an absent `SAT`.
    package static let defaultActiveThreshold: UInt16 = 4000

    /// `SII`: retransmission interval while the peer is idle.
    package var idleInterval: UInt32?
    /// `SAI`: retransmission interval while the peer is active.
    package var activeInterval: UInt32?
    /// `SAT`: how long the peer stays active after activity.
    package var activeThreshold: UInt16?

    package init(idleInterval: UInt32? = nil, activeInterval: UInt32? = nil, activeThreshold: UInt16? = nil) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
    }

    /// The SDK's usual advertisement: SII=500, SAI=300, SAT=4000.
    package static let standard = MRPAdvertisement(idleInterval: 500, activeInterval: 300, activeThreshold: 4000)

    /// `SII`, or the default when absent.
    package var effectiveIdleInterval: UInt32 { idleInterval ?? Self.defaultIdleInterval }
    /// `SAI`, or the default when absent.
    package var effectiveActiveInterval: UInt32 { activeInterval ?? Self.defaultActiveInterval }
    /// `SAT`, or the default when absent.
    package var effectiveActiveThreshold: UInt16 { activeThreshold ?? Self.defaultActiveThreshold }
}

/// The `T` key: which TCP roles a node supports. Empty means no TCP, and `T` is then omitted.
package struct TCPSupport: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 1 (value 2): can open TCP connections.
    package static let client = TCPSupport(rawValue: 2)
    /// Bit 2 (value 4): accepts TCP connections.
    package static let server = TCPSupport(rawValue: 4)
}

/// The `ICD` key of an intermittently connected device that can operate as a LIT.
package enum ICDMode: UInt8, Sendable, Hashable {
    /// `ICD=0`: currently a short idle time device.
    case shortIdleTime = 0
    /// `ICD=1`: currently a long idle time device.
    case longIdleTime = 1
}

/// The `CM` key. Values other than 0, 1, 2 may arrive from the network and are kept as they are.
package struct CommissioningMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `CM=0`: not in commissioning mode.
    package static let notOpen = CommissioningMode(rawValue: 0)
    /// `CM=1`: basic commissioning window (passcode from the label).
    package static let basic = CommissioningMode(rawValue: 1)
    /// `CM=2`: enhanced window opened by an administrator.
    package static let enhanced = CommissioningMode(rawValue: 2)
    /// True when a commissioning window is open (CM ≠ 0); the `_CM` subtype is published then.
    package var isOpen: Bool { rawValue != 0 }
    package var description: String { String(rawValue) }
}

/// The `PH` pairing-hint bitmap. Bits marked "(PI)" need a `PI` pairing instruction.
package struct PairingHint: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let powerCycle = PairingHint(rawValue: 1 << 0)
    package static let manufacturerURL = PairingHint(rawValue: 1 << 1)
    package static let administrator = PairingHint(rawValue: 1 << 2)
    package static let settingsMenuOnNode = PairingHint(rawValue: 1 << 3)
    /// (PI)
    package static let customInstruction = PairingHint(rawValue: 1 << 4)
    package static let deviceManual = PairingHint(rawValue: 1 << 5)
    package static let pressResetButton = PairingHint(rawValue: 1 << 6)
    package static let pressResetButtonWithPower = PairingHint(rawValue: 1 << 7)
    /// (PI) 8...12, 15...19 as listed in `instructionBits`.
    package static let pressResetButtonForSeconds = PairingHint(rawValue: 1 << 8)
    package static let pressSetupButton = PairingHint(rawValue: 1 << 13)
    package static let pressSetupButtonWithPower = PairingHint(rawValue: 1 << 14)

    /// Bits whose meaning needs the `PI` text: 4, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19.
    package static let instructionBits = PairingHint(
        rawValue: 1 << 4 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 11 | 1 << 12 | 1 << 15 | 1 << 16 | 1 << 17 | 1 << 18 | 1
            << 19)

    /// matter.js's default: power cycle + device manual (33).
    package static let standard: PairingHint = [.powerCycle, .deviceManual]

    /// True when `PI` must accompany this hint.
    package var needsInstruction: Bool { !intersection(Self.instructionBits).isEmpty }
}
