import MatterCore

extension ClusterSchema {
    /// Basic Information 0x0028 (rev 5, Matter 1.5: ConfigurationVersion added), on endpoint 0.
    public static let basicInformation = ClusterSchema(
        .basicInformation, "BasicInformation", revision: 5,
        attributes: [
            AttributeSchema(.BasicInformation.dataModelRevision, "DataModelRevision", .uint16),
            AttributeSchema(.BasicInformation.vendorName, "VendorName", .string(maxLength: 32)),
            AttributeSchema(.BasicInformation.vendorID, "VendorID", .uint16),
            AttributeSchema(.BasicInformation.productName, "ProductName", .string(maxLength: 32)),
            AttributeSchema(.BasicInformation.productID, "ProductID", .uint16),
            AttributeSchema(.BasicInformation.nodeLabel, "NodeLabel", .string(maxLength: 32), write: .manage),
            AttributeSchema(.BasicInformation.location, "Location", .string(maxLength: 2), write: .administer),
            AttributeSchema(.BasicInformation.hardwareVersion, "HardwareVersion", .uint16),
            AttributeSchema(.BasicInformation.hardwareVersionString, "HardwareVersionString", .string(maxLength: 64)),
            AttributeSchema(.BasicInformation.softwareVersion, "SoftwareVersion", .uint32),
            AttributeSchema(.BasicInformation.softwareVersionString, "SoftwareVersionString", .string(maxLength: 64)),
            AttributeSchema(
                .BasicInformation.manufacturingDate, "ManufacturingDate", .string(maxLength: 16),
                optional: true),
            AttributeSchema(.BasicInformation.partNumber, "PartNumber", .string(maxLength: 32), optional: true),
            AttributeSchema(.BasicInformation.productURL, "ProductURL", .string(maxLength: 256), optional: true),
            AttributeSchema(.BasicInformation.productLabel, "ProductLabel", .string(maxLength: 64), optional: true),
            AttributeSchema(.BasicInformation.serialNumber, "SerialNumber", .string(maxLength: 32), optional: true),
            AttributeSchema(
                .BasicInformation.localConfigDisabled, "LocalConfigDisabled", .boolean, write: .manage,
                optional: true),
            AttributeSchema(.BasicInformation.reachable, "Reachable", .boolean, optional: true),
            AttributeSchema(.BasicInformation.uniqueID, "UniqueID", .string(maxLength: 32)),
            AttributeSchema(
                .BasicInformation.capabilityMinima, "CapabilityMinima",
                .structure(
                    StructSchema(
                        "CapabilityMinimaStruct",
                        [
                            FieldSchema(0, "CaseSessionsPerFabric", .uint16),
                            FieldSchema(1, "SubscriptionsPerFabric", .uint16),
                        ]))),
            AttributeSchema(
                .BasicInformation.productAppearance, "ProductAppearance",
                .structure(
                    StructSchema(
                        "ProductAppearanceStruct",
                        [
                            FieldSchema(0, "Finish", .enum8),
                            FieldSchema(1, "PrimaryColor", .enum8, nullable: true),
                        ])), optional: true),
            AttributeSchema(.BasicInformation.specificationVersion, "SpecificationVersion", .uint32),
            AttributeSchema(.BasicInformation.maxPathsPerInvoke, "MaxPathsPerInvoke", .uint16),
            AttributeSchema(.BasicInformation.configurationVersion, "ConfigurationVersion", .uint32),
        ],
        events: [
            EventSchema(.BasicInformation.startUp, "StartUp", .critical, [FieldSchema(0, "SoftwareVersion", .uint32)]),
            EventSchema(.BasicInformation.shutDown, "ShutDown", .critical),
            EventSchema(.BasicInformation.leave, "Leave", .info, [FieldSchema(0, "FabricIndex", .uint8)]),
        ])
}
