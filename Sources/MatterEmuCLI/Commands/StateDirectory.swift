import Foundation

/// Where matter-emu keeps state and finds its test PKI.
enum StateDirectory {
    /// `--state-dir`, else `$XDG_STATE_HOME/matter-emu`, else `~/.local/state/matter-emu`.
    static func resolve(_ option: String?) -> String {
        if let option { return option }
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/matter-emu" }
        return NSHomeDirectory() + "/.local/state/matter-emu"
    }

    /// The test PKI (`fixtures/pki`): `--pki-dir`, `$MATTER_EMU_PKI`, the repository the binary was
    /// built in (`.build/<triple>/<config>/matter-emu`), or `./fixtures/pki`.
    static func pki(_ option: String?) -> String {
        if let option { return option }
        if let env = ProcessInfo.processInfo.environment["MATTER_EMU_PKI"], !env.isEmpty { return env }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = directory.appendingPathComponent("fixtures/pki")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pai-cert.der").path) {
                return candidate.path
            }
            directory = directory.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/fixtures/pki"
    }
}
