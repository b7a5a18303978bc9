import MatterCore

extension ClusterSchema {
    /// On/Off 0x0006 (rev 6).
    public static let onOff = ClusterSchema(
        .onOff, "OnOff", revision: 6,
        features: [
            Feature(0, "LT", "Lighting"), Feature(1, "DF", "DeadFrontBehavior"), Feature(2, "OFFONLY", "OffOnly"),
        ],
        attributes: [
            AttributeSchema(.OnOff.onOff, "OnOff", .boolean),
            AttributeSchema(.OnOff.globalSceneControl, "GlobalSceneControl", .boolean, optional: true),
            AttributeSchema(.OnOff.onTime, "OnTime", .uint16, write: .operate, optional: true),
            AttributeSchema(.OnOff.offWaitTime, "OffWaitTime", .uint16, write: .operate, optional: true),
            AttributeSchema(
                .OnOff.startUpOnOff, "StartUpOnOff", .enum8, nullable: true, write: .manage,
                optional: true),
        ],
        commands: [
            CommandSchema(.OnOff.off, "Off"),
            CommandSchema(.OnOff.on, "On"),
            CommandSchema(.OnOff.toggle, "Toggle"),
            CommandSchema(
                .OnOff.offWithEffect, "OffWithEffect",
                [
                    FieldSchema(0, "EffectIdentifier", .enum8),
                    FieldSchema(1, "EffectVariant", .enum8),
                ]),
            CommandSchema(.OnOff.onWithRecallGlobalScene, "OnWithRecallGlobalScene"),
            CommandSchema(
                .OnOff.onWithTimedOff, "OnWithTimedOff",
                [
                    FieldSchema(0, "OnOffControl", .map8),
                    FieldSchema(1, "OnTime", .uint16),
                    FieldSchema(2, "OffWaitTime", .uint16),
                ]),
        ])
}
