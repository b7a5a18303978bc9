public import MatterInteraction
public import MatterTLV

/// What reading one attribute gave: a value (`null` is a value) or the answer that the node does not
/// have the attribute, a different thing.
public enum AttributeValue: Hashable, Sendable {
    /// The attribute's value; `.null` for a null value.
    case value(TLVValue)
    /// The node has no such endpoint, cluster or attribute (UNSUPPORTED_ENDPOINT, _CLUSTER, _ATTRIBUTE).
    case unsupported(IMStatus)

    /// The value, or nil when unsupported.
    public var value: TLVValue? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// True for a null value (not for an unsupported attribute).
    public var isNull: Bool { value == .null }

    /// True when the node has the attribute.
    public var isSupported: Bool { value != nil }
}

/// Whether a node has an attribute, from its cluster's AttributeList.
public enum AttributeSupport: Hashable, Sendable {
    /// The cluster lists the attribute; `nullable` is the attribute's schema quality (`X`), false for
    /// attributes this project has no schema for.
    case supported(nullable: Bool)
    /// The endpoint, cluster or attribute is not on the node.
    case unsupported

    public var isSupported: Bool {
        if case .supported = self { return true }
        return false
    }
}

/// A subscription's report: the changed attributes (empty for a keep-alive).
public struct AttributeReportBatch: Sendable {
    public let attributes: [AttributeReport]
}

extension IMStatus {
    /// UNSUPPORTED_ENDPOINT, UNSUPPORTED_CLUSTER and UNSUPPORTED_ATTRIBUTE: the path does not exist.
    var meansUnsupported: Bool {
        self == .unsupportedEndpoint || self == .unsupportedCluster || self == .unsupportedAttribute
    }
}
