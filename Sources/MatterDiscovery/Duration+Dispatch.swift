import Dispatch

extension Duration {
    /// The duration as a Dispatch interval (nanoseconds, saturating; negative counts as zero).
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanos.overflow, nanos.partialValue < Int64(Int.max) else { return .never }
        return .nanoseconds(Int(nanos.partialValue + attoseconds / 1_000_000_000))
    }
}
