import Foundation

/// The package's built executables, beside the test bundle (`.build/<triple>/debug/`), or in
/// `MATTER_LAN_BIN` when set.
enum BuiltBinaries {
    static var directory: String {
        if let bin = ProcessInfo.processInfo.environment["MATTER_LAN_BIN"] { return bin }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    }

    static var matterEmu: String { directory + "/matter-emu" }
    static var probe: String { directory + "/matter-dnssd-probe" }
    static var hostile: String { directory + "/matter-emu-hostile" }

    /// The package root (for fixtures/): `MATTER_LAN_ROOT` or the current directory `swift test` runs in.
    static var packageRoot: String {
        ProcessInfo.processInfo.environment["MATTER_LAN_ROOT"] ?? FileManager.default.currentDirectoryPath
    }
}
