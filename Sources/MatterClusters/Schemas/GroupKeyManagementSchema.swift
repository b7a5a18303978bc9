import MatterCore

extension ClusterSchema {
    /// Group Key Management 0x003F (rev 2), on endpoint 0. Commands need a fabric and Administer.
    public static let groupKeyManagement = ClusterSchema(
        .groupKeyManagement, "GroupKeyManagement", revision: 2,
        features: [Feature(0, "CS", "CacheAndSync")],
        attributes: [
            AttributeSchema(
                .GroupKeyManagement.groupKeyMap, "GroupKeyMap",
                .list(
                    .structure(
                        StructSchema(
                            "GroupKeyMapStruct", fabricScoped: true,
                            [
                                FieldSchema(1, "GroupId", .uint16),
                                FieldSchema(2, "GroupKeySetID", .uint16),
                                .fabricIndex,
                            ]))), write: .manage, fabricScoped: true),
            AttributeSchema(
                .GroupKeyManagement.groupTable, "GroupTable",
                .list(
                    .structure(
                        StructSchema(
                            "GroupInfoMapStruct", fabricScoped: true,
                            [
                                FieldSchema(1, "GroupId", .uint16),
                                FieldSchema(2, "Endpoints", .list(.uint16)),
                                FieldSchema(3, "GroupName", .string(maxLength: 16), optional: true),
                                .fabricIndex,
                            ]))), fabricScoped: true),
            AttributeSchema(.GroupKeyManagement.maxGroupsPerFabric, "MaxGroupsPerFabric", .uint16),
            AttributeSchema(.GroupKeyManagement.maxGroupKeysPerFabric, "MaxGroupKeysPerFabric", .uint16),
        ],
        commands: [
            CommandSchema(
                .GroupKeyManagement.keySetWrite, "KeySetWrite",
                [FieldSchema(0, "GroupKeySet", .structure(groupKeySetStruct))],
                privilege: .administer, fabricScoped: true),
            CommandSchema(
                .GroupKeyManagement.keySetRead, "KeySetRead", [FieldSchema(0, "GroupKeySetID", .uint16)],
                response: .command(.GroupKeyManagement.keySetReadResponse), privilege: .administer,
                fabricScoped: true),
            CommandSchema(
                .GroupKeyManagement.keySetRemove, "KeySetRemove", [FieldSchema(0, "GroupKeySetID", .uint16)],
                privilege: .administer, fabricScoped: true),
            CommandSchema(
                .GroupKeyManagement.keySetReadAllIndices, "KeySetReadAllIndices",
                response: .command(.GroupKeyManagement.keySetReadAllIndicesResponse),
                privilege: .administer, fabricScoped: true),
        ],
        responses: [
            CommandSchema(
                .GroupKeyManagement.keySetReadResponse, "KeySetReadResponse",
                [FieldSchema(0, "GroupKeySet", .structure(groupKeySetStruct))]),
            CommandSchema(
                .GroupKeyManagement.keySetReadAllIndicesResponse, "KeySetReadAllIndicesResponse",
                [FieldSchema(0, "GroupKeySetIDs", .list(.uint16))]),
        ])

    /// GroupKeySetStruct, the argument of KeySetWrite.
    public static let groupKeySetStruct = StructSchema(
        "GroupKeySetStruct",
        [
            FieldSchema(0, "GroupKeySetID", .uint16),
            FieldSchema(1, "GroupKeySecurityPolicy", .enum8),
            FieldSchema(2, "EpochKey0", .octets(maxLength: 16), nullable: true),
            FieldSchema(3, "EpochStartTime0", .uint64, nullable: true),
            FieldSchema(4, "EpochKey1", .octets(maxLength: 16), nullable: true),
            FieldSchema(5, "EpochStartTime1", .uint64, nullable: true),
            FieldSchema(6, "EpochKey2", .octets(maxLength: 16), nullable: true),
            FieldSchema(7, "EpochStartTime2", .uint64, nullable: true),
            FieldSchema(8, "GroupKeyMulticastPolicy", .enum8, optional: true),
        ])
}
