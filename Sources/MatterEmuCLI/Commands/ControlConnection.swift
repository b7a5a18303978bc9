import Foundation

/// A client connection to a control-plane Unix socket: one line out, one line back, each step within
/// a time limit (connecting, sending, and the whole of each answer).
final class ControlConnection {
    /// Why an exchange with the socket failed (exit 7).
    struct Failure: Error, CustomStringConvertible, ExitCodeProviding {
        let description: String
        var exitCode: ExitCode { .unreachable }
    }

    private let fd: Int32
    private let path: String
    private let timeout: Int
    private var pending: [UInt8] = []

    /// Connects to `path`, waiting at most `timeout` seconds (a server whose backlog is full makes
    /// connect(2) wait).
    init(path: String, timeout: Int) throws(Failure) {
        self.path = path
        self.timeout = timeout
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(ENAMETOOLONG)))")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else {
            throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        // For a Unix socket, SO_SNDTIMEO bounds connect(2) as well as send(2).
        Self.setTimeout(socketFD, SO_SNDTIMEO, seconds: Double(timeout))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = errno
            Foundation.close(socketFD)
            if reason == EAGAIN || reason == EINPROGRESS {
                throw Failure(description: "\(path) did not accept the connection within --timeout \(timeout) s")
            }
            throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(reason)))")
        }
        fd = socketFD
    }

    /// Sends `line` and returns the answer line; throws when the peer closes or does not answer in time.
    func exchange(_ line: String) throws(Failure) -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(timeout))
        let out = Array((line + "\n").utf8)
        var sent = 0
        while sent < out.count {
            let written = out[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw failure(errno) }
            sent += written
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let answer = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return answer
            }
            let left = deadline - clock.now
            guard left > .zero else { throw failure(EAGAIN) }
            Self.setTimeout(
                fd, SO_RCVTIMEO,
                seconds: max(
                    0.001,
                    Double(left.components.seconds)
                        + Double(left.components.attoseconds) / 1e18))
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure(count == 0 ? 0 : errno) }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    func close() { Foundation.close(fd) }

    private func failure(_ reason: Int32) -> Failure {
        switch reason {
        case 0: Failure(description: "\(path) closed the connection before answering")
        case EAGAIN: Failure(description: "\(path) did not answer within --timeout \(timeout) s")
        default: Failure(description: "\(path): \(String(cString: strerror(reason)))")
        }
    }

    private static func setTimeout(_ fd: Int32, _ option: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}
