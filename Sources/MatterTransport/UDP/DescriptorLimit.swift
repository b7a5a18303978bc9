#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds how many sockets it
/// can bind: each device's UDP endpoint is one descriptor. Many systems start processes with a soft
/// limit of 1024 under a much higher hard limit; an unprivileged process may raise its soft limit
/// up to the hard one.
package struct DescriptorLimit: Equatable, Sendable {
    /// The limit the kernel enforces now.
    package var soft: UInt64
    /// The ceiling the soft limit may be raised to without privileges (`UInt64.max`: unlimited).
    package var hard: UInt64

    package init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    /// The limit to set so that `needed` descriptors fit: unchanged when the soft limit is already at
    /// the hard one, otherwise the soft limit raised to the hard limit (or, under an unlimited hard
    /// limit, to `needed` when the soft one is lower). Throws
    /// ``DescriptorLimitError/hardLimitTooLow(needed:hardLimit:)`` when `needed` exceeds the hard limit.
    package func raised(toHold needed: UInt64) throws(DescriptorLimitError) -> DescriptorLimit {
        guard needed <= hard else { throw .hardLimitTooLow(needed: needed, hardLimit: hard) }
        // Linux refuses an unlimited soft RLIMIT_NOFILE (it is capped by fs.nr_open), so an
        // unlimited hard limit raises the soft one only as far as asked.
        let target = hard == UInt64.max ? max(soft, needed) : hard
        return DescriptorLimit(soft: max(soft, target), hard: hard)
    }

    /// The process's limit now.
    package static func current() throws(DescriptorLimitError) -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(rlimitNoFile, &limit) == 0 else { throw .system(call: "getrlimit", errno: errno) }
        return DescriptorLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Makes room for `needed` open descriptors before anything is opened: raises the soft limit to
    /// the hard one (see ``raised(toHold:)``), or throws without changing anything when the hard
    /// limit is too low. Returns the limit in force afterwards.
    @discardableResult
    package static func ensure(room needed: Int) throws(DescriptorLimitError) -> DescriptorLimit {
        let now = try current()
        let wanted = try now.raised(toHold: UInt64(max(0, needed)))
        guard wanted != now else { return now }
        var limit = rlimit(rlim_cur: rlim_t(wanted.soft), rlim_max: rlim_t(wanted.hard))
        guard setrlimit(rlimitNoFile, &limit) == 0 else { throw .system(call: "setrlimit", errno: errno) }
        return wanted
    }

    /// Glibc imports `RLIMIT_NOFILE` as an enum case; its calls take `__rlimit_resource_t`.
    private static let rlimitNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
