import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A test hook for crash-consistency tests (the crash suite in `Tests/MatterEmuSuitesTests`), not a
/// user feature: with `MATTER_EMU_TEST_KILL_AT=<point>` in its environment, `matter-emu device` or a `pairing` command
/// kills itself with SIGKILL the moment it reaches that named point of commissioning — what an
/// outside `kill -9` at that instant does (no clean-up, no flush, no exit handlers). The device's
/// points are `MatterDevice.DeviceCheckpoint`'s, the commissioner's `CommissioningCheckpoint`'s;
/// an unknown name is a usage error, so a typo cannot make a test pass silently.
enum TestKillHook {
    static let variable = "MATTER_EMU_TEST_KILL_AT"

    /// The point named in the environment (nil when unset or empty), checked against `known`.
    static func requestedPoint(known: [String], command: String) throws(UsageError) -> String? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        guard known.contains(value) else {
            throw UsageError(
                "\(variable)=\(value) names no test point of this command (known: \(known.joined(separator: ", ")))",
                command: command)
        }
        return value
    }

    /// Writes one line on stderr (unbuffered, so it survives the kill), then SIGKILLs this process.
    static func die(at point: String) {
        let line = Array("test hook: SIGKILL at \(point)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        kill(getpid(), SIGKILL)
    }
}
