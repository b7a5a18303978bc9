import Foundation
import Glibc

/// A Unix-socket client (a control-plane peer in tests) whose reads wait without blocking a thread,
/// with a 30 s hang guard each (a handler under test may need the cooperative pool to answer). Close
/// on exec: a process another test spawns meanwhile must not keep the connection open.
package final class UnixSocketClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to the socket at `path`.
    package init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw TestSupportError.timedOut("connect \(path): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Sends all of `text`.
    package func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EAGAIN || errno == EINTR {
                usleep(1000)
                continue
            }
            guard written > 0 else { throw TestSupportError.timedOut("send: \(String(cString: strerror(errno)))") }
            sent += written
        }
    }

    /// The next line, without its newline.
    package func line() async throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            guard try await readMore() else { throw TestSupportError.timedOut("the server closed before a line") }
        }
    }

    /// Everything until the server closes (throws when the hang guard runs out first).
    package func readToEnd() async throws -> String {
        while try await readMore() {}
        return String(decoding: pending, as: UTF8.self)
    }

    /// Reads what arrives into `pending` without blocking a thread: false at the end of the stream.
    private func readMore() async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                pending.append(contentsOf: buffer[0..<count])
                return true
            }
            if count == 0 { return false }
            guard errno == EAGAIN || errno == EINTR, clock.now < deadline else {
                throw TestSupportError.timedOut("no answer (errno \(errno))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private var closed = false
    /// Closes the connection (once).
    package func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
