import Foundation
import MatterCore

/// `--app-pipe FIFO`: a named pipe (created by the device, mode 0600; a stale FIFO is replaced) on
/// which harnesses written for the connectedhomeip example apps write their JSON commands, one per
/// line or one per open-write-close. The pipe has no way back: each answer goes to the log (errors as
/// warnings). Commands are handled in order, on a thread of the pipe's own.
public final class AppPipe: @unchecked Sendable {  // `closed` is guarded by `lock`; the path is immutable
    /// The FIFO's path.
    public let path: String
    private let handler: @Sendable (String) async -> String
    private let lock = NSLock()
    private var closed = false
    private let log = Logger(label: "app-pipe")

    /// Creates the FIFO at `path` and starts reading; throws a ``DeviceError/invalidConfiguration(_:)``
    /// when `path` is taken by something that is not a FIFO or cannot be made.
    public init(path: String, handler: @escaping @Sendable (String) async -> String) throws(DeviceError) {
        self.path = path
        self.handler = handler
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFIFO else {
                throw .invalidConfiguration("--app-pipe \(path) exists and is not a FIFO")
            }
            unlink(path)
        }
        guard mkfifo(path, 0o600) == 0 else {
            throw .invalidConfiguration("--app-pipe \(path): \(String(cString: strerror(errno)))")
        }
        Thread.detachNewThread { [self] in readLoop() }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    /// Stops reading and removes the FIFO.
    public func close() {
        let shouldClose = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard shouldClose else { return }
        // Wakes a reader blocked in open(2) waiting for a writer.
        let wake = open(path, O_WRONLY | O_NONBLOCK)
        if wake >= 0 { Foundation.close(wake) }
        unlink(path)
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isClosed {
            let fd = open(path, O_RDONLY)  // blocks until a writer opens the FIFO
            guard fd >= 0 else {
                if errno == EINTR { continue }
                if !isClosed { log.warning("--app-pipe \(path): \(String(cString: strerror(errno)))") }
                return
            }
            var pending: [UInt8] = []
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }  // every writer closed
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    handle(Array(pending[..<newline]))
                    pending.removeSubrange(...newline)
                }
                if pending.count > 1 << 20 { pending.removeAll() }  // no newline in a megabyte: dropped
            }
            Foundation.close(fd)
            // The SDK apps take one write as one command: a last line without a newline counts.
            if !isClosed { handle(pending) }
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
