/// Exit codes of `matter-emu`, one per failure class, documented in README.md and `--help`.
enum ExitCode: Int32, CaseIterable {
    case success = 0
    /// An unexpected internal failure (a bug, or the system refused a resource).
    case failure = 1
    /// The command line or a value in it is invalid (unknown option, bad onboarding code...).
    case usage = 2
    /// No device matching the payload or node was found (DNS-SD or address).
    case discovery = 3
    /// The PASE handshake failed (wrong passcode, device busy or window closed).
    case pase = 4
    /// Device attestation failed (untrusted PAA, VID/PID mismatch, bad signature...).
    case attestation = 5
    /// A commissioning stage after PASE failed (the message names the stage).
    case commissioning = 6
    /// The node could not be reached operationally (resolve, CASE, or no answer in time).
    case unreachable = 7
    /// The device answered with an interaction-model error status.
    case status = 8
    /// The state directory or its store could not be read or written.
    case storage = 9

    /// One line for the help text and README.
    var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "unexpected internal failure"
        case .usage: "invalid command line or value"
        case .discovery: "device not found"
        case .pase: "PASE failed (wrong passcode, busy, window closed)"
        case .attestation: "device attestation failed"
        case .commissioning: "a commissioning stage failed"
        case .unreachable: "node unreachable (resolve, CASE, timeout)"
        case .status: "the device answered with an error status"
        case .storage: "state directory or store error"
        }
    }
}

/// An error that knows which exit code it ends the process with.
protocol ExitCodeProviding: Error {
    var exitCode: ExitCode { get }
}

extension UsageError: ExitCodeProviding {
    var exitCode: ExitCode { .usage }
}
