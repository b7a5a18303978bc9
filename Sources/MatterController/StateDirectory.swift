#if canImport(Glibc)
    import Glibc
#endif

/// Where a controller keeps its store: `--state-dir`, else `$XDG_STATE_HOME/matter-emu`, else
/// `~/.local/state/matter-emu`.
public enum StateDirectory {
    /// The store's file name inside the state directory.
    public static let storeFileName = "controller.sqlite"

    /// The default state directory from the environment; nil when neither `XDG_STATE_HOME` nor `HOME`
    /// is set.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/matter-emu" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/matter-emu" }
        return nil
    }

    /// The process environment, as a dictionary.
    public static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The store's path inside `directory`.
    public static func storePath(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + storeFileName
    }
}
