/// Matter's numeric identifiers as distinct types, so a node ID is never passed where a fabric ID
/// belongs. Each wraps its raw wire value and prints in the spec's hexadecimal form.
public protocol MatterIdentifier: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible
where RawValue: FixedWidthInteger & UnsignedInteger & Sendable {
    init(_ rawValue: RawValue)
}

extension MatterIdentifier {
    public init(rawValue: RawValue) { self.init(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "0x" + hexDigits(rawValue, width: RawValue.bitWidth / 4) }
}

/// A 64-bit operational node ID (spec 2.5.5).
public struct NodeID: MatterIdentifier {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    /// Unspecified node ID (0).
    public static let unspecified = NodeID(0)
    /// True for IDs in the operational range 0x0000_0000_0000_0001...0xFFFF_FFEF_FFFF_FFFF.
    public var isOperational: Bool { rawValue != 0 && rawValue <= 0xFFFF_FFEF_FFFF_FFFF }
}

/// A 64-bit fabric ID.
public struct FabricID: MatterIdentifier {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
}

/// A 16-bit vendor ID (0xFFF1...0xFFF4 are test vendors).
public struct VendorID: MatterIdentifier {
    public let rawValue: UInt16
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    /// The first test vendor, used by every example and fixture in this project.
    public static let testVendor1 = VendorID(0xFFF1)
}

/// A 16-bit product ID.
public struct ProductID: MatterIdentifier {
    public let rawValue: UInt16
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
}

/// A 16-bit endpoint number.
public struct EndpointID: MatterIdentifier {
    public let rawValue: UInt16
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    /// The root-node endpoint.
    public static let root = EndpointID(0)
}

/// A 32-bit cluster ID.
public struct ClusterID: MatterIdentifier {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A 32-bit attribute ID.
public struct AttributeID: MatterIdentifier {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A 32-bit command ID.
public struct CommandID: MatterIdentifier {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A 32-bit event ID.
public struct EventID: MatterIdentifier {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A 32-bit device type ID.
public struct DeviceTypeID: MatterIdentifier {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
}

/// A 16-bit group ID.
public struct GroupID: MatterIdentifier {
    public let rawValue: UInt16
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
}

/// Upper-case hexadecimal digits of `value`, zero-padded to `width`.
package func hexDigits<T: FixedWidthInteger>(_ value: T, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
