public import MatterCore

/// Global attributes (present on every cluster) and, in one namespace per cluster, the attribute IDs
/// of the clusters this project knows: `AttributeID.OnOff.onOff`, `AttributeID.featureMap`.
extension AttributeID {
    /// GeneratedCommandList (0xFFF8): response commands the server sends.
    public static let generatedCommandList = AttributeID(0xFFF8)
    /// AcceptedCommandList (0xFFF9): commands the server accepts.
    public static let acceptedCommandList = AttributeID(0xFFF9)
    /// EventList (0xFFFA): removed in Matter 1.3; served only by twins of older devices that had it.
    public static let eventList = AttributeID(0xFFFA)
    /// AttributeList (0xFFFB): every implemented attribute, the globals included.
    public static let attributeList = AttributeID(0xFFFB)
    /// FeatureMap (0xFFFC).
    public static let featureMap = AttributeID(0xFFFC)
    /// ClusterRevision (0xFFFD).
    public static let clusterRevision = AttributeID(0xFFFD)

    /// True for the global attribute range 0xF000...0xFFFE.
    public var isGlobal: Bool { rawValue >= 0xF000 && rawValue <= 0xFFFE }
}
