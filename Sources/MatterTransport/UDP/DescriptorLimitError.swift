/// Why the process cannot hold the file descriptors a number of sockets needs.
public enum DescriptorLimitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `needed` descriptors exceed the hard limit (RLIMIT_NOFILE), which only a privileged process or
    /// the one that started this process can raise.
    case hardLimitTooLow(needed: UInt64, hardLimit: UInt64)
    /// `getrlimit` or `setrlimit` failed with `errno`.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .hardLimitTooLow(let needed, let hardLimit):
            "\(needed) file descriptors are needed, but this process may open at most \(hardLimit) "
                + "(the hard RLIMIT_NOFILE limit): start fewer devices, or raise the hard limit "
                + "(`ulimit -Hn \(needed)` as root, or LimitNOFILE= in a systemd unit)"
        case .system(let call, let errno): "\(call)(RLIMIT_NOFILE) failed (errno \(errno))"
        }
    }
}
