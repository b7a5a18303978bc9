/// The controller's files inside its state directory (`--state-dir`; the CLI's default is
/// `$XDG_STATE_HOME/matter-emu`, else `~/.local/state/matter-emu`).
public enum ControllerStateDirectory {
    /// The store's file name inside the state directory.
    public static let storeFileName = "controller.sqlite"

    /// The store's path inside `directory`.
    public static func storePath(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + storeFileName
    }
}
