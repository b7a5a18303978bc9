/// One stage of commissioning as data: what it does, and the policies ``CommissioningFlow`` applies
/// around it (retries, a timeout, the fail-safe). The work reads and fills the flow's context (what
/// earlier stages found) and returns the detail its `succeeded` event carries.
struct CommissioningStep<Context: AnyObject> {
    /// When a failed attempt is made again.
    enum Retry: Equatable {
        /// Never: the work has its own rules, or is local.
        case never
        /// When the device did not answer (MRP gave up, or no response in time), up to
        /// ``ControllerConfiguration/interactionRetries`` more times; `label` names the request in the log.
        case whenUnreachable(_ label: String)
    }

    /// How the step relates to the device's fail-safe.
    enum FailSafe: Equatable {
        /// It runs without one (before PASE, local work, or after CommissioningComplete).
        case notNeeded
        /// It arms the fail-safe: its window starts when the step succeeds.
        case arms
        /// It needs the fail-safe armed, and expects to take about `expecting` of its window: when
        /// less than that is left, the flow re-arms it first (nil: no re-arm before this step).
        case needsArmed(expecting: Expectation?)
    }

    /// How long a step expects to take, for the re-arm decision.
    enum Expectation: Equatable {
        case milliseconds(UInt64)
        /// Half of the armed window (the SDK's commissioner keeps that margin).
        case halfTheWindow

        func milliseconds(ofWindow window: UInt64) -> UInt64 {
            switch self {
            case .milliseconds(let value): value
            case .halfTheWindow: window / 2
            }
        }
    }

    /// One run of the work.
    struct Attempt {
        /// 0 for the first run, then 1, 2...
        let number: Int
        /// True when an earlier attempt was made (its request may have reached the device).
        var isRetry: Bool { number > 0 }
    }

    typealias Work = (Context, Attempt) async throws(ControllerError) -> String?

    let stage: CommissioningStage
    let failSafe: FailSafe
    let retry: Retry
    /// The longest one attempt may take, clock milliseconds (nil: the requests' own timeouts bound it).
    let timeout: UInt64?
    /// The reason to skip the step in this context, or nil to run it.
    let skip: ((Context) -> String?)?
    let work: Work

    init(
        _ stage: CommissioningStage, failSafe: FailSafe = .notNeeded, retry: Retry = .never, timeout: UInt64? = nil,
        skip: ((Context) -> String?)? = nil, work: @escaping Work
    ) {
        self.stage = stage
        self.failSafe = failSafe
        self.retry = retry
        self.timeout = timeout
        self.skip = skip
        self.work = work
    }
}
