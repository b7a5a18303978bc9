import MatterCore

extension ClusterSchema {
    /// General Diagnostics 0x0033 (rev 2), mandatory on the root node.
    public static let generalDiagnostics = ClusterSchema(
        .generalDiagnostics, "GeneralDiagnostics", revision: 2,
        attributes: [
            AttributeSchema(
                .GeneralDiagnostics.networkInterfaces, "NetworkInterfaces",
                .list(
                    .structure(
                        StructSchema(
                            "NetworkInterface",
                            [
                                FieldSchema(0, "Name", .string(maxLength: 32)),
                                FieldSchema(1, "IsOperational", .boolean),
                                FieldSchema(2, "OffPremiseServicesReachableIPv4", .boolean, nullable: true),
                                FieldSchema(3, "OffPremiseServicesReachableIPv6", .boolean, nullable: true),
                                FieldSchema(4, "HardwareAddress", .octets(maxLength: 8)),
                                FieldSchema(5, "IPv4Addresses", .list(.octets(maxLength: 4))),
                                FieldSchema(6, "IPv6Addresses", .list(.octets(maxLength: 16))),
                                FieldSchema(7, "Type", .enum8),
                            ])))),
            AttributeSchema(.GeneralDiagnostics.rebootCount, "RebootCount", .uint16),
            AttributeSchema(.GeneralDiagnostics.upTime, "UpTime", .uint64),
            AttributeSchema(.GeneralDiagnostics.bootReason, "BootReason", .enum8),
            AttributeSchema(.GeneralDiagnostics.activeHardwareFaults, "ActiveHardwareFaults", .list(.enum8)),
            AttributeSchema(.GeneralDiagnostics.testEventTriggersEnabled, "TestEventTriggersEnabled", .boolean),
        ],
        commands: [
            CommandSchema(
                .GeneralDiagnostics.testEventTrigger, "TestEventTrigger",
                [
                    FieldSchema(0, "EnableKey", .octets(maxLength: 16)),
                    FieldSchema(1, "EventTrigger", .uint64),
                ], privilege: .manage),
            CommandSchema(
                .GeneralDiagnostics.timeSnapshot, "TimeSnapshot",
                response: .command(.GeneralDiagnostics.timeSnapshotResponse)),
        ],
        responses: [
            CommandSchema(
                .GeneralDiagnostics.timeSnapshotResponse, "TimeSnapshotResponse",
                [
                    FieldSchema(0, "SystemTimeMs", .uint64),
                    FieldSchema(1, "PosixTimeMs", .uint64, nullable: true),
                ])
        ],
        events: [
            EventSchema(
                .GeneralDiagnostics.hardwareFaultChange, "HardwareFaultChange", .critical,
                [FieldSchema(0, "Current", .list(.enum8)), FieldSchema(1, "Previous", .list(.enum8))]),
            EventSchema(
                .GeneralDiagnostics.bootReason, "BootReason", .critical, [FieldSchema(0, "BootReason", .enum8)]),
        ])
}
