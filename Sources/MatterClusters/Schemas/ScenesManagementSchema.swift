import MatterCore

extension ClusterSchema {
    /// Scenes Management 0x0062 (rev 1, Matter 1.3 and later): scenes per fabric keyed by group ID and
    /// scene ID, each with a transition time (ms), an optional name (SceneNames, SN) and extension
    /// field sets (the scene-able attributes of other clusters on the endpoint). Every command needs an
    /// accessing fabric.
    public static let scenesManagement = ClusterSchema(
        .scenesManagement, "ScenesManagement", revision: 1,
        features: [Feature(0, "SN", "SceneNames")],
        attributes: [
            AttributeSchema(.ScenesManagement.sceneTableSize, "SceneTableSize", .uint16),
            AttributeSchema(
                .ScenesManagement.fabricSceneInfo, "FabricSceneInfo", .list(.structure(sceneInfoStruct)),
                fabricScoped: true),
        ],
        commands: [
            CommandSchema(
                .ScenesManagement.addScene, "AddScene",
                [
                    sceneGroupID(0), sceneID(1), FieldSchema(2, "TransitionTime", .uint32),
                    FieldSchema(3, "SceneName", .string(maxLength: 16)),
                    FieldSchema(4, "ExtensionFieldSetStructs", .list(.structure(extensionFieldSetStruct))),
                ],
                response: .command(.ScenesManagement.addSceneResponse), privilege: .manage, fabricScoped: true),
            CommandSchema(
                .ScenesManagement.viewScene, "ViewScene", [sceneGroupID(0), sceneID(1)],
                response: .command(.ScenesManagement.viewSceneResponse), fabricScoped: true),
            CommandSchema(
                .ScenesManagement.removeScene, "RemoveScene", [sceneGroupID(0), sceneID(1)],
                response: .command(.ScenesManagement.removeSceneResponse), privilege: .manage, fabricScoped: true),
            CommandSchema(
                .ScenesManagement.removeAllScenes, "RemoveAllScenes", [sceneGroupID(0)],
                response: .command(.ScenesManagement.removeAllScenesResponse), privilege: .manage,
                fabricScoped: true),
            CommandSchema(
                .ScenesManagement.storeScene, "StoreScene", [sceneGroupID(0), sceneID(1)],
                response: .command(.ScenesManagement.storeSceneResponse), privilege: .manage, fabricScoped: true),
            CommandSchema(
                .ScenesManagement.recallScene, "RecallScene",
                [
                    sceneGroupID(0), sceneID(1),
                    FieldSchema(2, "TransitionTime", .uint32, optional: true, nullable: true),
                ], fabricScoped: true),
            CommandSchema(
                .ScenesManagement.getSceneMembership, "GetSceneMembership", [sceneGroupID(0)],
                response: .command(.ScenesManagement.getSceneMembershipResponse), fabricScoped: true),
            CommandSchema(
                .ScenesManagement.copyScene, "CopyScene",
                [
                    FieldSchema(0, "Mode", .map8), FieldSchema(1, "GroupIdentifierFrom", .uint16),
                    FieldSchema(2, "SceneIdentifierFrom", .uint8), FieldSchema(3, "GroupIdentifierTo", .uint16),
                    FieldSchema(4, "SceneIdentifierTo", .uint8),
                ],
                response: .command(.ScenesManagement.copySceneResponse), privilege: .manage, fabricScoped: true),
        ],
        responses: [
            CommandSchema(
                .ScenesManagement.addSceneResponse, "AddSceneResponse", [sceneStatus, sceneGroupID(1), sceneID(2)]),
            CommandSchema(
                .ScenesManagement.viewSceneResponse, "ViewSceneResponse",
                [
                    sceneStatus, sceneGroupID(1), sceneID(2),
                    FieldSchema(3, "TransitionTime", .uint32, optional: true),
                    FieldSchema(4, "SceneName", .string(maxLength: 16), optional: true),
                    FieldSchema(
                        5, "ExtensionFieldSetStructs", .list(.structure(extensionFieldSetStruct)), optional: true),
                ]),
            CommandSchema(
                .ScenesManagement.removeSceneResponse, "RemoveSceneResponse",
                [sceneStatus, sceneGroupID(1), sceneID(2)]),
            CommandSchema(
                .ScenesManagement.removeAllScenesResponse, "RemoveAllScenesResponse", [sceneStatus, sceneGroupID(1)]),
            CommandSchema(
                .ScenesManagement.storeSceneResponse, "StoreSceneResponse",
                [sceneStatus, sceneGroupID(1), sceneID(2)]),
            CommandSchema(
                .ScenesManagement.getSceneMembershipResponse, "GetSceneMembershipResponse",
                [
                    sceneStatus, FieldSchema(1, "Capacity", .uint8, nullable: true), sceneGroupID(2),
                    FieldSchema(3, "SceneList", .list(.uint8), optional: true),
                ]),
            CommandSchema(
                .ScenesManagement.copySceneResponse, "CopySceneResponse",
                [
                    sceneStatus, FieldSchema(1, "GroupIdentifierFrom", .uint16),
                    FieldSchema(2, "SceneIdentifierFrom", .uint8),
                ]),
        ])

    /// SceneInfoStruct, an entry of FabricSceneInfo (one per fabric).
    public static let sceneInfoStruct = StructSchema(
        "SceneInfoStruct", fabricScoped: true,
        [
            FieldSchema(0, "SceneCount", .uint8), FieldSchema(1, "CurrentScene", .uint8),
            FieldSchema(2, "CurrentGroup", .uint16), FieldSchema(3, "SceneValid", .boolean),
            FieldSchema(4, "RemainingCapacity", .uint8), .fabricIndex,
        ])

    /// AttributeValuePairStruct: one scene-able attribute and its value in exactly one of the value
    /// fields (the one of the attribute's width and signedness; booleans as ValueUnsigned8).
    public static let attributeValuePairStruct = StructSchema(
        "AttributeValuePairStruct",
        [
            FieldSchema(0, "AttributeID", .uint32),
            FieldSchema(1, "ValueUnsigned8", .uint8, optional: true),
            FieldSchema(2, "ValueSigned8", .signed(bits: 8), optional: true),
            FieldSchema(3, "ValueUnsigned16", .uint16, optional: true),
            FieldSchema(4, "ValueSigned16", .signed(bits: 16), optional: true),
            FieldSchema(5, "ValueUnsigned32", .uint32, optional: true),
            FieldSchema(6, "ValueSigned32", .int32, optional: true),
            FieldSchema(7, "ValueUnsigned64", .uint64, optional: true),
            FieldSchema(8, "ValueSigned64", .signed(bits: 64), optional: true),
        ])

    /// ExtensionFieldSetStruct: the scene's values of one cluster.
    public static let extensionFieldSetStruct = StructSchema(
        "ExtensionFieldSetStruct",
        [
            FieldSchema(0, "ClusterID", .uint32),
            FieldSchema(1, "AttributeValueList", .list(.structure(attributeValuePairStruct))),
        ])

    private static let sceneStatus = FieldSchema(0, "Status", .enum8)
    private static func sceneGroupID(_ tag: UInt8) -> FieldSchema { FieldSchema(tag, "GroupID", .uint16) }
    private static func sceneID(_ tag: UInt8) -> FieldSchema { FieldSchema(tag, "SceneID", .uint8) }
}
