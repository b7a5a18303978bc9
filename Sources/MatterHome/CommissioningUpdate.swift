/// One step of a commissioning as it runs (``Structure/commissioningUpdates(onboardingPayload:)``).
/// Stage names are the CLI's (`discovery`, `pase`, `read-commissioning-info`, `add-noc`...).
public enum CommissioningUpdate: Sendable, Hashable {
    /// A stage started.
    case stageStarted(String)
    /// A stage finished; `detail` says what it found (an address, the fail-safe expiry...).
    case stageSucceeded(String, detail: String?)
    /// A stage did not run, for `reason`.
    case stageSkipped(String, reason: String)
    /// A stage failed: commissioning stops (the sequence then throws the ``HomeError``).
    case stageFailed(String, message: String)
    /// The device is commissioned and stored, with this ``HomeDevice/id``.
    case commissioned(deviceID: String)
}
