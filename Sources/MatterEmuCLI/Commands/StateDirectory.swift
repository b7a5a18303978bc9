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

    /// Why a state directory cannot be made (exit 9).
    struct Failure: Error, CustomStringConvertible, ExitCodeProviding {
        let description: String
        var exitCode: ExitCode { .storage }
    }

    /// Makes the directory that holds `file` (and its parents, mode 0700), with a message that names
    /// the part in the way: a regular file where a directory should be, a missing permission...
    /// `option` is how the user named it (`--state-dir`, `--KVS`).
    static func create(holding file: String, option: String) throws(Failure) {
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 { continue }
            let reason = errno
            var status = stat()
            if reason == EEXIST, stat(prefix, &status) == 0 {
                if (status.st_mode & S_IFMT) == S_IFDIR { continue }
                throw Failure(
                    description: "\(option): \(prefix) is not a directory (a file of another kind is there); "
                        + "give a directory, or remove what is there")
            }
            throw Failure(
                description: "\(option): cannot create the directory \(prefix): \(String(cString: strerror(reason)))")
        }
    }

    /// The test PKI (`fixtures/pki`): `--pki-dir`, `$MATTER_EMU_PKI`, the repository the binary was
    /// built in (`.build/<triple>/<config>/matter-emu`), or `./fixtures/pki`.
    static func pki(_ option: String?) -> String {
        if let option { return option }
        if let env = ProcessInfo.processInfo.environment["MATTER_EMU_PKI"], !env.isEmpty { return env }
        // Run by name through PATH (as in a container), argv[0] has no directory: the kernel knows the file.
        let invoked = CommandLine.arguments[0]
        let path =
            invoked.contains("/")
            ? invoked : (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? invoked
        let executable = URL(fileURLWithPath: path).resolvingSymlinksInPath()
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
