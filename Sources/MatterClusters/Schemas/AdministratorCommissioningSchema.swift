import MatterCore

extension ClusterSchema {
    /// Administrator Commissioning 0x003C (rev 1). Every command is timed and needs Administer.
    public static let administratorCommissioning = ClusterSchema(
        .administratorCommissioning, "AdministratorCommissioning", revision: 1,
        features: [Feature(0, "BC", "Basic")],
        attributes: [
            AttributeSchema(.AdministratorCommissioning.windowStatus, "WindowStatus", .enum8),
            AttributeSchema(.AdministratorCommissioning.adminFabricIndex, "AdminFabricIndex", .uint8, nullable: true),
            AttributeSchema(.AdministratorCommissioning.adminVendorID, "AdminVendorId", .uint16, nullable: true),
        ],
        commands: [
            CommandSchema(
                .AdministratorCommissioning.openCommissioningWindow, "OpenCommissioningWindow",
                [
                    FieldSchema(0, "CommissioningTimeout", .uint16),
                    FieldSchema(1, "PAKEPasscodeVerifier", .octets(maxLength: 97)),
                    FieldSchema(2, "Discriminator", .uint16),
                    FieldSchema(3, "Iterations", .uint32),
                    FieldSchema(4, "Salt", .octets(maxLength: 32)),
                ], privilege: .administer, timed: true),
            CommandSchema(
                .AdministratorCommissioning.openBasicCommissioningWindow, "OpenBasicCommissioningWindow",
                [FieldSchema(0, "CommissioningTimeout", .uint16)], privilege: .administer, timed: true),
            CommandSchema(
                .AdministratorCommissioning.revokeCommissioning, "RevokeCommissioning",
                privilege: .administer, timed: true),
        ])
}
