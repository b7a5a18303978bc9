import MatterCore

extension ClusterSchema {
    /// Access Control 0x001F (rev 2), on endpoint 0.
    public static let accessControl = ClusterSchema(
        .accessControl, "AccessControl", revision: 2,
        features: [Feature(0, "EXTS", "Extension")],
        attributes: [
            AttributeSchema(
                .AccessControl.acl, "ACL", .list(.structure(accessControlEntryStruct)),
                read: .administer, write: .administer, fabricScoped: true),
            AttributeSchema(
                .AccessControl.extension, "Extension",
                .list(
                    .structure(
                        StructSchema(
                            "AccessControlExtensionStruct", fabricScoped: true,
                            [
                                FieldSchema(1, "Data", .octets(maxLength: 128)),
                                .fabricIndex,
                            ]))), read: .administer, write: .administer, fabricScoped: true, optional: true),
            AttributeSchema(.AccessControl.subjectsPerAccessControlEntry, "SubjectsPerAccessControlEntry", .uint16),
            AttributeSchema(.AccessControl.targetsPerAccessControlEntry, "TargetsPerAccessControlEntry", .uint16),
            AttributeSchema(.AccessControl.accessControlEntriesPerFabric, "AccessControlEntriesPerFabric", .uint16),
        ],
        events: [
            EventSchema(
                .AccessControl.accessControlEntryChanged, "AccessControlEntryChanged", .info,
                [
                    FieldSchema(1, "AdminNodeID", .uint64, nullable: true),
                    FieldSchema(2, "AdminPasscodeID", .uint16, nullable: true),
                    FieldSchema(3, "ChangeType", .enum8),
                    FieldSchema(4, "LatestValue", .structure(accessControlEntryStruct), nullable: true),
                    .fabricIndex,
                ], read: .administer, fabricSensitive: true)
        ])

    /// AccessControlEntryStruct, an entry of the ACL attribute.
    public static let accessControlEntryStruct = StructSchema(
        "AccessControlEntryStruct", fabricScoped: true,
        [
            FieldSchema(1, "Privilege", .enum8),
            FieldSchema(2, "AuthMode", .enum8),
            FieldSchema(3, "Subjects", .list(.uint64), nullable: true),
            FieldSchema(
                4, "Targets",
                .list(
                    .structure(
                        StructSchema(
                            "AccessControlTargetStruct",
                            [
                                FieldSchema(0, "Cluster", .uint32, nullable: true),
                                FieldSchema(1, "Endpoint", .uint16, nullable: true),
                                FieldSchema(2, "DeviceType", .uint32, nullable: true),
                            ]))), nullable: true),
            .fabricIndex,
        ])
}
