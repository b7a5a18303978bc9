import MatterHome

extension HomeError: ExitCodeProviding {
    /// The exit code of the failure's class (a cancellation is an internal failure: the CLI does not
    /// cancel a Home call on its own).
    var exitCode: ExitCode {
        switch category {
        case .invalidArgument: .usage
        case .discovery: .discovery
        case .pase: .pase
        case .attestation: .attestation
        case .commissioning: .commissioning
        case .unreachable: .unreachable
        case .status: .status
        case .storage: .storage
        case .cancelled, .internalFailure: .failure
        }
    }
}
