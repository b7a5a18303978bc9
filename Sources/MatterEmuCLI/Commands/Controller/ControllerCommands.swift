import MatterClusters

/// The commissioner and controller commands (docs/CLI.md), for `allCommands`.
enum ControllerCommands {
    static var all: [CommandSpec] {
        let written: [any CLICommand.Type] = [
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
            NodeDumpCommand.self,
        ]
        // A hand-written command of a cluster (`onoff toggle`, which also takes groups) is shown with that
        // cluster's generic ones and takes the place of the generic command with the same words.
        let clusterNames = Set(ClusterRegistry.standard.clusters.map(\.cliName))
        let specs = written.map { command in
            CommandSpec(command, group: clusterNames.contains(command.path[0]) ? command.path[0] : nil)
        }
        return specs + ClusterAttributeCommands.all(except: Set(specs.map(\.path)))
    }
}
