import MatterCore

extension ClusterSchema {
    /// Groups 0x0004 (rev 4). Every command needs an accessing fabric.
    public static let groups = ClusterSchema(
        .groups, "Groups", revision: 4,
        features: [Feature(0, "GN", "GroupNames")],
        attributes: [
            AttributeSchema(.Groups.nameSupport, "NameSupport", .map8)
        ],
        commands: [
            CommandSchema(
                .Groups.addGroup, "AddGroup", [groupID, groupName],
                response: .command(.Groups.addGroupResponse), privilege: .manage, fabricScoped: true),
            CommandSchema(
                .Groups.viewGroup, "ViewGroup", [groupID],
                response: .command(.Groups.viewGroupResponse), fabricScoped: true),
            CommandSchema(
                .Groups.getGroupMembership, "GetGroupMembership",
                [FieldSchema(0, "GroupList", .list(.uint16))],
                response: .command(.Groups.getGroupMembershipResponse), fabricScoped: true),
            CommandSchema(
                .Groups.removeGroup, "RemoveGroup", [groupID],
                response: .command(.Groups.removeGroupResponse), privilege: .manage, fabricScoped: true),
            CommandSchema(.Groups.removeAllGroups, "RemoveAllGroups", privilege: .manage, fabricScoped: true),
            CommandSchema(
                .Groups.addGroupIfIdentifying, "AddGroupIfIdentifying", [groupID, groupName],
                privilege: .manage, fabricScoped: true),
        ],
        responses: [
            CommandSchema(.Groups.addGroupResponse, "AddGroupResponse", [groupStatus, groupIDField(1)]),
            CommandSchema(
                .Groups.viewGroupResponse, "ViewGroupResponse",
                [
                    groupStatus, groupIDField(1), FieldSchema(2, "GroupName", .string(maxLength: 16)),
                ]),
            CommandSchema(
                .Groups.getGroupMembershipResponse, "GetGroupMembershipResponse",
                [
                    FieldSchema(0, "Capacity", .uint8, nullable: true),
                    FieldSchema(1, "GroupList", .list(.uint16)),
                ]),
            CommandSchema(.Groups.removeGroupResponse, "RemoveGroupResponse", [groupStatus, groupIDField(1)]),
        ])

    private static let groupID = groupIDField(0)
    private static let groupName = FieldSchema(1, "GroupName", .string(maxLength: 16))
    private static let groupStatus = FieldSchema(0, "Status", .enum8)
    private static func groupIDField(_ tag: UInt8) -> FieldSchema { FieldSchema(tag, "GroupID", .uint16) }
}
