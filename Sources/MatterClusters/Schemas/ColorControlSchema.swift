import MatterCore

extension ClusterSchema {
    /// Color Control 0x0300 (rev 8): the colour-temperature subset, plus XY for extended colour lights.
    /// Rev 8 (Matter 1.5) only made the WhitePoint* and ColorPoint* attributes read-only (CCB 2490),
    /// and this server serves none of them.
    public static let colorControl = ClusterSchema(
        .colorControl, "ColorControl", revision: 8,
        features: [
            Feature(0, "HS", "HueSaturation"), Feature(1, "EHUE", "EnhancedHue"), Feature(2, "CL", "ColorLoop"),
            Feature(3, "XY", "Xy"), Feature(4, "CT", "ColorTemperature"),
        ],
        attributes: [
            AttributeSchema(.ColorControl.remainingTime, "RemainingTime", .uint16, optional: true),
            AttributeSchema(.ColorControl.currentX, "CurrentX", .uint16, optional: true),
            AttributeSchema(.ColorControl.currentY, "CurrentY", .uint16, optional: true),
            AttributeSchema(.ColorControl.colorTemperatureMireds, "ColorTemperatureMireds", .uint16, optional: true),
            AttributeSchema(.ColorControl.colorMode, "ColorMode", .enum8),
            AttributeSchema(.ColorControl.options, "Options", .map8, write: .operate),
            AttributeSchema(.ColorControl.numberOfPrimaries, "NumberOfPrimaries", .uint8, nullable: true),
            AttributeSchema(.ColorControl.enhancedColorMode, "EnhancedColorMode", .enum8),
            AttributeSchema(.ColorControl.colorCapabilities, "ColorCapabilities", .map16),
            AttributeSchema(
                .ColorControl.colorTempPhysicalMinMireds, "ColorTempPhysicalMinMireds", .uint16,
                optional: true),
            AttributeSchema(
                .ColorControl.colorTempPhysicalMaxMireds, "ColorTempPhysicalMaxMireds", .uint16,
                optional: true),
            AttributeSchema(
                .ColorControl.coupleColorTempToLevelMinMireds, "CoupleColorTempToLevelMinMireds",
                .uint16, optional: true),
            AttributeSchema(
                .ColorControl.startUpColorTemperatureMireds, "StartUpColorTemperatureMireds", .uint16,
                nullable: true, write: .manage, optional: true),
        ],
        commands: [
            CommandSchema(
                .ColorControl.moveToColor, "MoveToColor",
                [
                    FieldSchema(0, "ColorX", .uint16),
                    FieldSchema(1, "ColorY", .uint16),
                    FieldSchema(2, "TransitionTime", .uint16),
                ] + options(from: 3)),
            CommandSchema(
                .ColorControl.moveColor, "MoveColor",
                [FieldSchema(0, "RateX", .signed(bits: 16)), FieldSchema(1, "RateY", .signed(bits: 16))]
                    + options(from: 2)),
            CommandSchema(
                .ColorControl.stepColor, "StepColor",
                [
                    FieldSchema(0, "StepX", .signed(bits: 16)),
                    FieldSchema(1, "StepY", .signed(bits: 16)),
                    FieldSchema(2, "TransitionTime", .uint16),
                ] + options(from: 3)),
            CommandSchema(
                .ColorControl.moveToColorTemperature, "MoveToColorTemperature",
                [
                    FieldSchema(0, "ColorTemperatureMireds", .uint16),
                    FieldSchema(1, "TransitionTime", .uint16),
                ] + options(from: 2)),
            CommandSchema(.ColorControl.stopMoveStep, "StopMoveStep", options(from: 0)),
            CommandSchema(
                .ColorControl.moveColorTemperature, "MoveColorTemperature",
                [
                    FieldSchema(0, "MoveMode", .enum8),
                    FieldSchema(1, "Rate", .uint16),
                    FieldSchema(2, "ColorTemperatureMinimumMireds", .uint16),
                    FieldSchema(3, "ColorTemperatureMaximumMireds", .uint16),
                ] + options(from: 4)),
            CommandSchema(
                .ColorControl.stepColorTemperature, "StepColorTemperature",
                [
                    FieldSchema(0, "StepMode", .enum8),
                    FieldSchema(1, "StepSize", .uint16),
                    FieldSchema(2, "TransitionTime", .uint16),
                    FieldSchema(3, "ColorTemperatureMinimumMireds", .uint16),
                    FieldSchema(4, "ColorTemperatureMaximumMireds", .uint16),
                ] + options(from: 5)),
        ])
}
