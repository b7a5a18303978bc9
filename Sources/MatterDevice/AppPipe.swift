import Foundation
import MatterCore

/// `--app-pipe FIFO`: a named pipe (created by the device, mode 0600; a stale FIFO is replaced, one a
/// live process reads is refused) on which harnesses written for the connectedhomeip example apps
/// write their JSON commands, one per line or one per open-write-close. The pipe has no way back:
/// each answer goes to the log (errors as warnings). Commands are handled in order, on a thread of
/// the pipe's own. A line over ``maxLineBytes`` is discarded whole (nothing of it runs; a warning
/// says so) and the pipe goes on with the next.
///
/// The reader keeps the FIFO open for reading from start to close (it opens a fresh descriptor before
/// it closes the one a writer finished with), so another process probing the path always finds it
/// live and never takes it over.
public final class AppPipe: @unchecked Sendable {  // `closed` is guarded by `lock`; the rest is immutable
    /// The FIFO's path.
    public var path: String { created.path }
    private let created: LocalServerPath
    private let handler: @Sendable (String) async -> String
    private let lock = NSLock()
    private var closed = false
    private let log = Logger(label: "app-pipe")
    private let first: Int32

    /// Creates the FIFO at `path` and starts reading; throws a ``DeviceError/invalidConfiguration(_:)``
    /// when `path` is taken by something that is not a FIFO, by a FIFO a live process reads, or
    /// cannot be made.
    public init(path: String, handler: @escaping @Sendable (String) async -> String) throws(DeviceError) {
        self.handler = handler
        var attempts = 0
        // mkfifo(3) creates the file only where there is none: a path in use is probed, never
        // unlinked blindly.
        while mkfifo(path, 0o600) != 0 {
            let reason = errno
            attempts += 1
            guard reason == EEXIST, attempts < 5 else {
                throw .invalidConfiguration("--app-pipe \(path): \(String(cString: strerror(reason)))")
            }
            let occupant = LocalServerPath.occupant(of: path, kind: .fifo)
            switch occupant {
            case .none, .stale: LocalServerPath.removeStale(occupant, at: path)
            case .live:
                throw .invalidConfiguration(
                    "--app-pipe \(path) is read by a running process: stop it or choose another path")
            case .other: throw .invalidConfiguration("--app-pipe \(path) exists and is not a FIFO")
            }
        }
        guard let created = LocalServerPath(created: path) else {
            throw .invalidConfiguration("--app-pipe \(path): removed as it was created")
        }
        self.created = created
        guard let fd = Self.openReader(created) else {
            created.removeIfOurs()
            throw .invalidConfiguration("--app-pipe \(path): \(String(cString: strerror(errno)))")
        }
        first = fd
        Thread.detachNewThread { [self] in readLoop() }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    /// Stops reading and removes the FIFO (when it is still the one this process created).
    public func close() {
        let shouldClose = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard shouldClose else { return }
        created.removeIfOurs()
    }

    /// Opens the FIFO for reading without waiting for a writer; nil (errno set) when it cannot, or
    /// when the file at the path is no longer the one this process created.
    private static func openReader(_ created: LocalServerPath) -> Int32? {
        let fd = open(created.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        guard created.isFile(fd) else {
            Foundation.close(fd)
            errno = ESTALE
            return nil
        }
        return fd
    }

    private func readLoop() {
        var fd = first
        defer { Foundation.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var framer = LineFramer(limit: Self.maxLineBytes)
        while !isClosed {
            var polled = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&polled, 1, 250)  // a quarter second: how soon `close()` is noticed
            if ready < 0, errno != EINTR {
                log.warning("--app-pipe \(path): \(String(cString: strerror(errno)))")
                return
            }
            guard ready > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                log.warning("--app-pipe \(path): \(String(cString: strerror(errno)))")
                return
            }
            if count > 0 {
                for item in framer.append(buffer[0..<count]) { handle(item) }
                continue
            }
            // Every writer closed. The SDK apps take one write as one command: a last line without a
            // newline counts. A fresh descriptor waits for the next writer; it is opened before the
            // old one closes, so the FIFO never has no reader.
            if let last = framer.finish() { handle(last) }
            guard let next = Self.openReader(created) else {
                if !isClosed { log.warning("--app-pipe \(path): \(String(cString: strerror(errno)))") }
                return
            }
            Foundation.close(fd)
            fd = next
        }
    }

    /// The longest command line taken (its newline not counted); a longer one is discarded whole.
    public static let maxLineBytes = 1 << 20

    private func handle(_ item: LineFramer.Item) {
        switch item {
        case .line(let bytes): handle(bytes)
        case .oversized(let bytes):
            log.warning(
                "--app-pipe \(path): a command of \(bytes) bytes is over the \(Self.maxLineBytes)-byte limit: "
                    + "discarded, nothing of it ran")
        }
    }

    private func handle(_ bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return }
        let answer = wait(for: line)
        if answer.hasPrefix(#"{"error""#) || answer.contains(#""ok":false"#) {
            log.warning("--app-pipe \(line): \(answer)")
        } else {
            log.notice("--app-pipe \(line): \(answer)")
        }
    }

    private func wait(for line: String) -> String {
        BlockingAnswer.wait(for: line, handler)
    }
}
