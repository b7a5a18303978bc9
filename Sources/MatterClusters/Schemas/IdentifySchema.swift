import MatterCore

extension ClusterSchema {
    /// Identify 0x0003 (rev 6, Matter 1.5; the mandatory elements are those of rev 5: IdentifyTime,
    /// IdentifyType, Identify, TriggerEffect).
    public static let identify = ClusterSchema(
        .identify, "Identify", revision: 6,
        attributes: [
            AttributeSchema(.Identify.identifyTime, "IdentifyTime", .uint16, write: .operate),
            AttributeSchema(.Identify.identifyType, "IdentifyType", .enum8),
        ],
        commands: [
            CommandSchema(
                .Identify.identify, "Identify", [FieldSchema(0, "IdentifyTime", .uint16)],
                privilege: .manage),
            CommandSchema(
                .Identify.triggerEffect, "TriggerEffect",
                [
                    FieldSchema(0, "EffectIdentifier", .enum8),
                    FieldSchema(1, "EffectVariant", .enum8),
                ], privilege: .manage),
        ])
}
