/// The commissioner and controller commands (docs/CLI.md), for `allCommands`.
enum ControllerCommands {
    static var all: [any CLICommand.Type] {
        [
            PairingCodeCommand.self, PairingOnNetworkCommand.self, PairingOnNetworkLongCommand.self,
            PairingAlreadyDiscoveredCommand.self, PairingOpenCommissioningWindowCommand.self,
            PairingUnpairCommand.self, UnpairCommand.self, PairingResumeCommand.self,
            OnOffOnCommand.self, OnOffOffCommand.self, OnOffToggleCommand.self, OnOffOffWithEffectCommand.self,
            LevelMoveToLevelCommand.self, LevelMoveToLevelWithOnOffCommand.self,
            ColorMoveToColorTemperatureCommand.self, DoorLockLockCommand.self, DoorLockUnlockCommand.self,
            DescribeCommand.self, NodesCommand.self, RenameCommand.self, RoomCommand.self, RoomsCommand.self,
            RoomsCreateCommand.self, RoomsDeleteCommand.self,
            GroupCreateCommand.self, GroupDeleteCommand.self, GroupAddCommand.self, GroupRemoveCommand.self,
            GroupListCommand.self, GroupShowCommand.self, GroupPartsCommand.self, AnyReadEventByIDCommand.self,
        ] + ClusterAttributeCommands.all
    }
}
