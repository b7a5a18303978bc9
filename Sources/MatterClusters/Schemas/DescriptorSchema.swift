import MatterCore

extension ClusterSchema {
    /// Descriptor 0x001D (rev 2): present on every endpoint.
    public static let descriptor = ClusterSchema(
        .descriptor, "Descriptor", revision: 2,
        features: [Feature(0, "TAGLIST", "TagList")],
        attributes: [
            AttributeSchema(.Descriptor.deviceTypeList, "DeviceTypeList", .list(.structure(deviceTypeStruct))),
            AttributeSchema(.Descriptor.serverList, "ServerList", .list(.uint32)),
            AttributeSchema(.Descriptor.clientList, "ClientList", .list(.uint32)),
            AttributeSchema(.Descriptor.partsList, "PartsList", .list(.uint16)),
            AttributeSchema(.Descriptor.tagList, "TagList", .list(.structure(semanticTagStruct)), optional: true),
        ])

    /// DeviceTypeStruct {0 DeviceType, 1 Revision}.
    public static let deviceTypeStruct = StructSchema(
        "DeviceTypeStruct",
        [
            FieldSchema(0, "DeviceType", .uint32),
            FieldSchema(1, "Revision", .uint16),
        ])

    static let semanticTagStruct = StructSchema(
        "SemanticTagStruct",
        [
            FieldSchema(0, "MfgCode", .uint16, nullable: true),
            FieldSchema(1, "NamespaceID", .enum8),
            FieldSchema(2, "Tag", .enum8),
            FieldSchema(3, "Label", .string(maxLength: 64), optional: true, nullable: true),
        ])
}
