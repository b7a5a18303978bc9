import Dispatch
import Foundation

/// A control-plane listener on a Unix socket (mode 0600; a stale socket file is replaced): one JSON
/// request per line in, one JSON answer per line out (docs/CONTROL.md). Each client is served on a
/// thread of its own; answers come from `handler`, which enters the node on its queue.
public final class ControlSocket: @unchecked Sendable {  // fd and flag are set once, closed once under `lock`
    /// The socket's path.
    public let path: String
    private let fd: Int32
    private let handler: @Sendable (String) async -> String
    private let lock = NSLock()
    private var closed = false

    /// Listens on `path`; throws a ``DeviceError/invalidConfiguration(_:)`` naming the reason.
    public init(path: String, handler: @escaping @Sendable (String) async -> String) throws(DeviceError) {
        self.path = path
        self.handler = handler
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw .invalidConfiguration("--control path must be 1...\(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFSOCK else {
                throw .invalidConfiguration("--control \(path) exists and is not a socket")
            }
            unlink(path)
        }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw .startup("control socket: \(String(cString: strerror(errno)))") }
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(oldMask)
        guard bound == 0, chmod(path, 0o600) == 0, listen(socketFD, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Foundation.close(socketFD)
            throw .invalidConfiguration("--control \(path): \(reason)")
        }
        fd = socketFD
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening and removes the socket file.
    public func close() {
        let shouldClose = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard shouldClose else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
        unlink(path)
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
