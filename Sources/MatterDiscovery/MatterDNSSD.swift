package import MatterCore

/// Matter's DNS-SD vocabulary: service types, default ports and subtype labels (spec digest dnssd.md §1).
package enum MatterDNSSD {
    /// Commissionable nodes (devices with an open commissioning window, or advertising CM=0).
    package static let commissionableServiceType = "_matterc._udp"
    /// Commissioned nodes, one instance per fabric.
    package static let operationalServiceType = "_matter._tcp"
    /// Commissioners offering User-Directed Commissioning.
    package static let commissionerServiceType = "_matterd._udp"

    /// Default port of both the commissionable and the operational SRV record (`CHIP_PORT`).
    package static let defaultPort: UInt16 = 5540
    /// Port a commissioner listens on for User-Directed Commissioning (`CHIP_UDC_PORT`).
    package static let commissionerUDCPort: UInt16 = 5550

    /// Largest long (12-bit) discriminator.
    package static let maxLongDiscriminator: UInt16 = 0x0FFF

    /// `_L<long discriminator>`, e.g. `_L3840` (0...4095).
    package static func longDiscriminatorSubtype(_ discriminator: UInt16) -> String { "_L\(discriminator)" }
    /// `_S<short discriminator>`, e.g. `_S15` (0...15: the long discriminator's upper 4 bits).
    package static func shortDiscriminatorSubtype(_ shortDiscriminator: UInt8) -> String { "_S\(shortDiscriminator)" }
    /// `_V<vendor id>` in decimal, e.g. `_V65521`.
    package static func vendorSubtype(_ vendor: VendorID) -> String { "_V\(vendor.rawValue)" }
    /// `_T<device type>` in decimal, e.g. `_T257`.
    package static func deviceTypeSubtype(_ deviceType: DeviceTypeID) -> String { "_T\(deviceType.rawValue)" }
    /// `_CM`: present only while the node is in commissioning mode (CM ≠ 0).
    package static let commissioningModeSubtype = "_CM"
    /// `_I<compressed fabric id>`, 16 upper-case hex digits, e.g. `_I87E1B004E235A130`.
    package static func compressedFabricSubtype(_ compressedFabricID: UInt64) -> String {
        "_I" + hexDigits(compressedFabricID, width: 16)
    }

    /// The short discriminator (upper 4 bits of the 12-bit long one), as in a manual pairing code.
    package static func shortDiscriminator(ofLong discriminator: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (discriminator & maxLongDiscriminator) >> 8)
    }

    /// The DNS name a subtype is browsed under, without the domain: `_L3840._sub._matterc._udp`.
    package static func subtypeServiceName(_ subtype: String, of serviceType: String) -> String {
        "\(subtype)._sub.\(serviceType)"
    }
}
