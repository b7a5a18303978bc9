import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Severity of a log line; lines below the configured level are not formatted at all.
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, notice, warning, error

    package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// Lower-case name as printed and as accepted by `--log-level`.
    package var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    package init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }
}

/// A tiny logging facade: one process-wide sink (stderr by default) and a level threshold.
/// Secrets (passcodes, keys) must never be passed to it.
package struct Logger: Sendable {
    /// Subsystem label printed in brackets, e.g. `transport`.
    package let label: String

    package init(label: String) { self.label = label }

    /// Process-wide configuration.
    package static let configuration = LogConfiguration()

    package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        let config = Logger.configuration
        guard level >= config.level else { return }
        config.emit("[\(level.name)] [\(label)] \(message())")
    }

    package func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    package func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}

/// Where log lines go and which are kept. Thread-safe.
package final class LogConfiguration: Sendable {
    private struct State {
        var level: LogLevel = .notice
        var sink: (@Sendable (String) -> Void)?
    }
    private let state = Mutex(State())

    init() {}

    /// Lines below this level are dropped.
    package var level: LogLevel {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// Replaces the sink (nil restores stderr).
    package func setSink(_ sink: (@Sendable (String) -> Void)?) { state.withLock { $0.sink = sink } }

    func emit(_ line: String) {
        if let sink = state.withLock({ $0.sink }) {
            sink(line)
        } else {
            StandardError.write(line + "\n")
        }
    }
}

/// Unbuffered writes to file descriptor 2.
package enum StandardError {
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buf in
            var done = 0
            while done < buf.count {
                let n = Glibc.write(2, buf.baseAddress! + done, buf.count - done)
                if n <= 0 { break }
                done += n
            }
        }
    }
}
