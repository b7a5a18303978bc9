import Foundation

/// A client connection to a control-plane Unix socket: one line out, one line back.
final class ControlConnection {
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to `path`; nil (errno set) when it cannot.
    init?(path: String) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let saved = errno
            Foundation.close(socketFD)
            errno = saved
            return nil
        }
        fd = socketFD
    }

    /// Sends `line` and returns the answer line, nil when the peer closed.
    func exchange(_ line: String) -> String? {
        let out = Array((line + "\n").utf8)
        var sent = 0
        while sent < out.count {
            let written = out[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return nil }
            sent += written
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let answer = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return answer
            }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    func close() { Foundation.close(fd) }
}
