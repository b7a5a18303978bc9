import MatterClusters
import MatterCore
import MatterTLV

/// An attribute of a trait: its live value (`trait.attributes.onOff`), and through the projected value
/// whether the device has it at all and whether it may be null (`trait.attributes.$onOff.isSupported`).
/// A nil value is either "not supported" (``isSupported`` false) or "supported and null".
@propertyWrapper
public struct TraitAttribute<Value: Sendable>: Sendable {
    let part: DevicePart
    let cluster: ClusterID
    let attribute: AttributeID
    let merge: GroupMerge
    let decode: @Sendable (TLVValue) -> Value?

    init(
        _ part: DevicePart, _ cluster: ClusterID, _ attribute: AttributeID, merge: GroupMerge,
        decode: @escaping @Sendable (TLVValue) -> Value?
    ) {
        self.part = part
        self.cluster = cluster
        self.attribute = attribute
        self.merge = merge
        self.decode = decode
    }

    /// The attribute `attribute` of the typed layer, its value as the type declares it.
    init<A: ClusterAttribute>(_ part: DevicePart, _ attribute: A.Type, merge: GroupMerge) where A.Value == Value {
        self.init(part, A.cluster, A.id, merge: merge) { value in try? A.decode(TLVElement(value)) }
    }

    /// A nullable attribute of the typed layer: null reads as nil.
    init<A: ClusterAttribute>(_ part: DevicePart, nullable attribute: A.Type, merge: GroupMerge)
    where A.Value == TLVNullable<Value> {
        self.init(part, A.cluster, A.id, merge: merge) { value in (try? A.decode(TLVElement(value)))?.optional }
    }

    /// A global attribute (FeatureMap, ClusterRevision) of `cluster`; set on a group part when the members agree.
    init(_ part: DevicePart, _ cluster: ClusterID, global attribute: AttributeID) where Value: TLVDecodable {
        self.init(part, cluster, attribute, merge: .common) { value in try? Value(tlv: TLVElement(value)) }
    }

    /// The value the device last reported; nil when null, not reported, or not supported. On a group
    /// part, dynamic state is never populated and capability limits are those every member can reach.
    public var wrappedValue: Value? {
        part.value(cluster, attribute, merge: merge).flatMap(decode)
    }

    public var projectedValue: TraitAttribute<Value> { self }

    /// True when the device (for a group part: any member) lists the attribute in its AttributeList.
    public var isSupported: Bool { part.isSupported(cluster, attribute) }

    /// True when the attribute may be null (its specification quality `X`).
    public var isNullable: Bool { ClusterRegistry.standard.cluster(cluster)?.attribute(attribute)?.isNullable ?? false }
}

/// TLV decoders for attribute values.
enum Decode {
    static func bool(_ value: TLVValue) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    static func unsigned<T: FixedWidthInteger & Sendable>(_ value: TLVValue) -> T? {
        value.unsignedValue.flatMap(T.init(exactly:))
    }

    static func string(_ value: TLVValue) -> String? {
        if case .utf8(let text) = value { return text }
        return nil
    }

    static func raw<T: RawRepresentable & Sendable>(_ value: TLVValue) -> T? where T.RawValue: FixedWidthInteger {
        value.unsignedValue.flatMap(T.RawValue.init(exactly:)).flatMap(T.init(rawValue:))
    }
}
