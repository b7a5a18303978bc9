import MatterCore

extension ClusterSchema {
    /// Level Control 0x0008 (rev 6).
    public static let levelControl = ClusterSchema(
        .levelControl, "LevelControl", revision: 6,
        features: [Feature(0, "OO", "OnOff"), Feature(1, "LT", "Lighting"), Feature(2, "FQ", "Frequency")],
        attributes: [
            AttributeSchema(.LevelControl.currentLevel, "CurrentLevel", .uint8, nullable: true),
            AttributeSchema(.LevelControl.remainingTime, "RemainingTime", .uint16, optional: true),
            AttributeSchema(.LevelControl.minLevel, "MinLevel", .uint8, optional: true),
            AttributeSchema(.LevelControl.maxLevel, "MaxLevel", .uint8, optional: true),
            AttributeSchema(.LevelControl.options, "Options", .map8, write: .operate),
            AttributeSchema(
                .LevelControl.onOffTransitionTime, "OnOffTransitionTime", .uint16, write: .operate,
                optional: true),
            AttributeSchema(.LevelControl.onLevel, "OnLevel", .uint8, nullable: true, write: .operate),
            AttributeSchema(
                .LevelControl.onTransitionTime, "OnTransitionTime", .uint16, nullable: true,
                write: .operate, optional: true),
            AttributeSchema(
                .LevelControl.offTransitionTime, "OffTransitionTime", .uint16, nullable: true,
                write: .operate, optional: true),
            AttributeSchema(
                .LevelControl.defaultMoveRate, "DefaultMoveRate", .uint8, nullable: true,
                write: .operate, optional: true),
            AttributeSchema(
                .LevelControl.startUpCurrentLevel, "StartUpCurrentLevel", .uint8, nullable: true,
                write: .manage, optional: true),
        ],
        commands: [
            CommandSchema(.LevelControl.moveToLevel, "MoveToLevel", moveToLevelFields),
            CommandSchema(.LevelControl.move, "Move", moveFields),
            CommandSchema(.LevelControl.step, "Step", stepFields),
            CommandSchema(.LevelControl.stop, "Stop", options(from: 0)),
            CommandSchema(.LevelControl.moveToLevelWithOnOff, "MoveToLevelWithOnOff", moveToLevelFields),
            CommandSchema(.LevelControl.moveWithOnOff, "MoveWithOnOff", moveFields),
            CommandSchema(.LevelControl.stepWithOnOff, "StepWithOnOff", stepFields),
            CommandSchema(.LevelControl.stopWithOnOff, "StopWithOnOff", options(from: 0)),
        ])

    private static let moveToLevelFields =
        [
            FieldSchema(0, "Level", .uint8),
            FieldSchema(1, "TransitionTime", .uint16, nullable: true),
        ] + options(from: 2)

    private static let moveFields =
        [
            FieldSchema(0, "MoveMode", .enum8),
            FieldSchema(1, "Rate", .uint8, nullable: true),
        ] + options(from: 2)

    private static let stepFields =
        [
            FieldSchema(0, "StepMode", .enum8),
            FieldSchema(1, "StepSize", .uint8),
            FieldSchema(2, "TransitionTime", .uint16, nullable: true),
        ] + options(from: 3)

    /// The OptionsMask and OptionsOverride pair that ends level and colour commands.
    static func options(from tag: UInt8) -> [FieldSchema] {
        [FieldSchema(tag, "OptionsMask", .map8), FieldSchema(tag + 1, "OptionsOverride", .map8)]
    }
}
