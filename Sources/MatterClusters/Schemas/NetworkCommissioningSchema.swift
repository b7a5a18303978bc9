import MatterCore

extension ClusterSchema {
    /// Network Commissioning 0x0031 (rev 2) as an Ethernet-only device has it: no commands.
    public static let networkCommissioning = ClusterSchema(
        .networkCommissioning, "NetworkCommissioning", revision: 2,
        features: [
            Feature(0, "WI", "WiFiNetworkInterface"), Feature(1, "TH", "ThreadNetworkInterface"),
            Feature(2, "ET", "EthernetNetworkInterface"),
        ],
        attributes: [
            AttributeSchema(.NetworkCommissioning.maxNetworks, "MaxNetworks", .uint8, read: .administer),
            AttributeSchema(
                .NetworkCommissioning.networks, "Networks",
                .list(
                    .structure(
                        StructSchema(
                            "NetworkInfoStruct",
                            [
                                FieldSchema(0, "NetworkID", .octets(maxLength: 32)),
                                FieldSchema(1, "Connected", .boolean),
                            ]))), read: .administer),
            AttributeSchema(.NetworkCommissioning.scanMaxTimeSeconds, "ScanMaxTimeSeconds", .uint8, optional: true),
            AttributeSchema(
                .NetworkCommissioning.connectMaxTimeSeconds, "ConnectMaxTimeSeconds", .uint8,
                optional: true),
            AttributeSchema(.NetworkCommissioning.interfaceEnabled, "InterfaceEnabled", .boolean, write: .administer),
            AttributeSchema(
                .NetworkCommissioning.lastNetworkingStatus, "LastNetworkingStatus", .enum8,
                nullable: true, read: .administer),
            AttributeSchema(
                .NetworkCommissioning.lastNetworkID, "LastNetworkID", .octets(maxLength: 32),
                nullable: true, read: .administer),
            AttributeSchema(
                .NetworkCommissioning.lastConnectErrorValue, "LastConnectErrorValue", .int32,
                nullable: true, read: .administer),
        ])
}
