import MatterCore

extension ClusterSchema {
    /// General Commissioning 0x0030 (rev 2), on endpoint 0.
    public static let generalCommissioning = ClusterSchema(
        .generalCommissioning, "GeneralCommissioning", revision: 2,
        attributes: [
            AttributeSchema(.GeneralCommissioning.breadcrumb, "Breadcrumb", .uint64, write: .administer),
            AttributeSchema(
                .GeneralCommissioning.basicCommissioningInfo, "BasicCommissioningInfo",
                .structure(
                    StructSchema(
                        "BasicCommissioningInfo",
                        [
                            FieldSchema(0, "FailSafeExpiryLengthSeconds", .uint16),
                            FieldSchema(1, "MaxCumulativeFailsafeSeconds", .uint16),
                        ]))),
            AttributeSchema(.GeneralCommissioning.regulatoryConfig, "RegulatoryConfig", .enum8),
            AttributeSchema(.GeneralCommissioning.locationCapability, "LocationCapability", .enum8),
            AttributeSchema(
                .GeneralCommissioning.supportsConcurrentConnection, "SupportsConcurrentConnection",
                .boolean),
        ],
        commands: [
            CommandSchema(
                .GeneralCommissioning.armFailSafe, "ArmFailSafe",
                [
                    FieldSchema(0, "ExpiryLengthSeconds", .uint16),
                    FieldSchema(1, "Breadcrumb", .uint64),
                ], response: .command(.GeneralCommissioning.armFailSafeResponse), privilege: .administer),
            CommandSchema(
                .GeneralCommissioning.setRegulatoryConfig, "SetRegulatoryConfig",
                [
                    FieldSchema(0, "NewRegulatoryConfig", .enum8),
                    FieldSchema(1, "CountryCode", .string(maxLength: 2)),
                    FieldSchema(2, "Breadcrumb", .uint64),
                ], response: .command(.GeneralCommissioning.setRegulatoryConfigResponse), privilege: .administer),
            CommandSchema(
                .GeneralCommissioning.commissioningComplete, "CommissioningComplete",
                response: .command(.GeneralCommissioning.commissioningCompleteResponse),
                privilege: .administer, fabricScoped: true),
        ],
        responses: [
            CommandSchema(.GeneralCommissioning.armFailSafeResponse, "ArmFailSafeResponse", commissioningResult),
            CommandSchema(
                .GeneralCommissioning.setRegulatoryConfigResponse, "SetRegulatoryConfigResponse",
                commissioningResult),
            CommandSchema(
                .GeneralCommissioning.commissioningCompleteResponse, "CommissioningCompleteResponse",
                commissioningResult),
        ])

    private static let commissioningResult = [
        FieldSchema(0, "ErrorCode", .enum8),
        FieldSchema(1, "DebugText", .string(maxLength: 128)),
    ]
}
