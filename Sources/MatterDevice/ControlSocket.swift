import Dispatch
import Foundation

/// A control-plane listener on a Unix socket (mode 0600; a stale socket file is replaced, one a live
/// process serves is refused, and only the file this process created is removed): one JSON request
/// per line in, one JSON answer per line out (docs/CONTROL.md). Each client is served on a thread of
/// its own; answers come from `handler`, which enters the node on its queue.
public final class ControlSocket: @unchecked Sendable {  // fd and flag are set once, closed once under `lock`
    /// The socket's path.
    public var path: String { created.path }
    private let created: LocalServerPath
    private let fd: Int32
    private let handler: @Sendable (String) async -> String
    private let lock = NSLock()
    private var closed = false

    /// Listens on `path`; throws a ``DeviceError/invalidConfiguration(_:)`` naming the reason: the
    /// path is too long, is not a socket, or is a socket a live process serves (a stale one, whose
    /// server is gone, is replaced).
    public init(path: String, handler: @escaping @Sendable (String) async -> String) throws(DeviceError) {
        self.handler = handler
        guard var address = LocalServerPath.socketAddress(path) else {
            throw .invalidConfiguration("--control path must be 1...\(LocalServerPath.maximumSocketPathBytes) bytes")
        }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw .startup("control socket: \(String(cString: strerror(errno)))") }
        // bind(2) creates the file only where there is none: a path in use is probed, never unlinked
        // blindly, so a live device's socket is never taken over.
        var attempts = 0
        while true {
            let oldMask = umask(0o177)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            let bindError = errno
            umask(oldMask)
            if bound == 0 { break }
            attempts += 1
            guard bindError == EADDRINUSE, attempts < 5 else {
                Foundation.close(socketFD)
                throw .invalidConfiguration("--control \(path): \(String(cString: strerror(bindError)))")
            }
            let occupant = LocalServerPath.occupant(of: path, kind: .socket)
            switch occupant {
            case .none, .stale: LocalServerPath.removeStale(occupant, at: path)
            case .live(let pid):
                Foundation.close(socketFD)
                throw .invalidConfiguration(
                    "--control \(path) is served by a running process\(pid.map { " (pid \($0))" } ?? ""): "
                        + "stop it or choose another path")
            case .other:
                Foundation.close(socketFD)
                throw .invalidConfiguration("--control \(path) exists and is not a socket")
            }
        }
        guard let created = LocalServerPath(created: path), chmod(path, 0o600) == 0, listen(socketFD, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            Foundation.close(socketFD)
            throw .invalidConfiguration("--control \(path): \(reason)")
        }
        self.created = created
        fd = socketFD
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening and removes the socket file (when it is still the one this process created).
    public func close() {
        let shouldClose = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard shouldClose else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
        created.removeIfOurs()
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { Foundation.close(client) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }  // EOF or error: a partial line is dropped, nothing changes
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let answer = Array((respond(line) + "\n").utf8)
                var sent = 0
                while sent < answer.count {
                    let written = answer[sent...].withUnsafeBytes {
                        send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { return }
                    sent += written
                }
            }
            if pending.count > 1 << 20 { return }  // no newline in a megabyte: not our protocol
        }
    }

    private func respond(_ line: String) -> String {
        BlockingAnswer.wait(for: line, handler)
    }
}
