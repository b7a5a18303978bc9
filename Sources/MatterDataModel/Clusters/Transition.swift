/// A linear move of one or more values over a duration, stepped by its cluster's timer every
/// ``tick`` milliseconds (level, colour temperature, x/y). Values move by integer interpolation from
/// the start, so the last step lands exactly on the target.
struct Transition: Hashable {
    /// How often a running transition updates its values, ms.
    static let tick: UInt64 = 100

    let start: [Int]
    let target: [Int]
    /// Each value's duration, ms (> 0): values moving at their own rates (MoveColor) reach their
    /// targets at different times.
    let durations: [UInt64]
    /// Total duration, ms (> 0): the longest.
    let duration: UInt64
    private(set) var elapsed: UInt64 = 0

    init(from start: [Int], to target: [Int], duration: UInt64) {
        self.init(from: start, to: target, durations: start.map { _ in duration })
    }

    /// A move whose values each take their own time (`durations[i]` for value i).
    init(from start: [Int], to target: [Int], durations: [UInt64]) {
        self.start = start
        self.target = target
        self.durations = durations.map { max($0, 1) }
        duration = self.durations.max() ?? 1
    }

    var isFinished: Bool { elapsed >= duration }

    /// Time left, ms.
    var remaining: UInt64 { duration - min(elapsed, duration) }

    /// Time left in tenths of a second, rounded up (RemainingTime).
    var remainingTenths: UInt16 { Self.tenths(remaining) }

    mutating func advance(by milliseconds: UInt64) { elapsed = min(elapsed + milliseconds, duration) }

    /// The values at the current elapsed time.
    var values: [Int] {
        guard !isFinished else { return target }
        return zip(zip(start, target), durations).map { ends, duration in
            let (from, to) = ends
            return from + Int((Int64(to - from) * Int64(min(elapsed, duration))) / Int64(duration))
        }
    }

    static func tenths(_ milliseconds: UInt64) -> UInt16 { UInt16(min((milliseconds + 99) / 100, 0xFFFF)) }
}

/// Quieter reporting of a value that moves during transitions (CurrentLevel,
/// ColorTemperatureMireds): a change is reportable when forced (a command's own change, the end of a
/// transition) or when a second has passed since the last reported one; others are quiet.
struct ReportThrottle: Hashable {
    static let interval: UInt64 = 1000
    private var lastReport: UInt64?

    mutating func isReportable(now: UInt64, force: Bool) -> Bool {
        if force || lastReport.map({ now >= $0 + Self.interval }) ?? true {
            lastReport = now
            return true
        }
        return false
    }
}

/// Reporting rule of RemainingTime (Level Control and Color Control, quality Q): a change is
/// reportable when a command moves it by more than 10 (1 s), or when it reaches 0 after a reported
/// non-zero value; countdown steps are quiet.
struct RemainingTimeReporting: Hashable {
    private var lastReported: UInt16 = 0

    mutating func isReportable(_ value: UInt16, byCommand: Bool) -> Bool {
        let delta = value > lastReported ? value - lastReported : lastReported - value
        let reportable = (value == 0 && lastReported != 0) || (byCommand && delta > 10)
        if reportable { lastReported = value }
        return reportable
    }
}
