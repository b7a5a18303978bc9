import Dispatch
import Foundation
import MatterCore

/// A control-plane listener on a Unix socket (mode 0600; a stale socket file is replaced, one a live
/// process serves is refused, and only the file this process created is removed): one JSON request
/// per line in, one JSON answer per line out (docs/CONTROL.md). Each client is served on a thread of
/// its own, up to ``Limits/maxClients`` at once, and disconnected after ``Limits/idleSeconds`` of
/// silence; a line over ``Limits/maxLineBytes`` is discarded whole and answered with an error. Running
/// out of descriptors pauses accepting (logged once), never ends it. Answers come from `handler`,
/// which enters the node on its queue.
public final class ControlSocket: @unchecked Sendable {  // fd and flag are set once, closed once under `lock`
    /// The socket's path.
    public var path: String { created.path }
    private let created: LocalServerPath
    private let fd: Int32
    private let handler: @Sendable (String) async -> String
    private let limits: Limits
    private let lock = NSLock()
    private var closed = false
    private var clients = 0
    /// Requests being handled or answered now.
    private var answering = 0
    private let log = Logger(label: "control")

    /// How much a control socket serves at once (docs/CONTROL.md).
    public struct Limits: Sendable {
        /// Clients connected at once; one more is answered "busy" and closed.
        public var maxClients = 64
        /// A client that sends nothing (or reads nothing) for this long is disconnected.
        public var idleSeconds = 60
        /// The longest request line; a longer one is discarded whole and answered with an error.
        public var maxLineBytes = 1 << 20

        /// The defaults above.
        public init() {}
    }

    /// Listens on `path`; throws a ``DeviceError/invalidConfiguration(_:)`` naming the reason: the
    /// path is too long, is not a socket, or is a socket a live process serves (a stale one, whose
    /// server is gone, is replaced).
    public init(
        path: String, limits: Limits = Limits(), handler: @escaping @Sendable (String) async -> String
    ) throws(DeviceError) {
        self.handler = handler
        self.limits = limits
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

    /// Stops listening, removes the socket file (when it is still the one this process created) and
    /// waits (up to five seconds) for the answers to requests already taken.
    public func close() {
        let shouldClose = lock.withLock {
            defer { closed = true }
            return !closed
        }
        guard shouldClose else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        Foundation.close(fd)
        created.removeIfOurs()
        // Requests already taken get their answers (a reboot's, which may end the process) before the
        // caller goes on; up to five seconds.
        for _ in 0..<500 where lock.withLock({ answering > 0 }) { Thread.sleep(forTimeInterval: 0.01) }
    }

    private func acceptLoop() {
        var backoff = 0.01
        var exhausted = false
        // Spells that follow one another (descriptors freed one at a time) are one episode in the log:
        // at most one warning a minute.
        let clock = ContinuousClock()
        var lastWarning: ContinuousClock.Instant?
        var recoveryToAnnounce = false
        while !isClosed {
            let client = accept(fd, nil, nil)
            if client < 0 {
                let reason = errno
                switch reason {
                case EINTR, ECONNABORTED, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the connection waits in the backlog; try again
                    // after a pause that doubles up to a second, and say so once.
                    if !exhausted, lastWarning.map({ clock.now - $0 > .seconds(60) }) ?? true {
                        lastWarning = clock.now
                        recoveryToAnnounce = true
                        log.warning(
                            "--control \(path): cannot accept a client (\(String(cString: strerror(reason)))); "
                                + "retrying until descriptors are free")
                    }
                    exhausted = true
                    Thread.sleep(forTimeInterval: backoff)
                    backoff = min(backoff * 2, 1)
                    continue
                default:
                    if !isClosed { log.warning("--control \(path): accept: \(String(cString: strerror(reason)))") }
                    return
                }
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            if exhausted {
                if recoveryToAnnounce { log.notice("--control \(path): accepting clients again") }
                recoveryToAnnounce = false
                exhausted = false
                backoff = 0.01
            }
            let admitted = lock.withLock {
                guard clients < limits.maxClients else { return false }
                clients += 1
                return true
            }
            guard admitted else {
                refuse(client)
                continue
            }
            Thread.detachNewThread { [self] in
                serve(client)
                lock.withLock { clients -= 1 }
            }
        }
    }

    private var isClosed: Bool { lock.withLock { closed } }

    /// Answers a client over the cap with an error and closes it.
    private func refuse(_ client: Int32) {
        setTimeout(client, SO_SNDTIMEO, seconds: 1)
        _ = write(
            client,
            VirtualDevice.answer(
                error: "busy: \(limits.maxClients) clients are connected (the most served at once); try again")
                + "\n")
        Foundation.close(client)
    }

    private func serve(_ client: Int32) {
        defer { Foundation.close(client) }
        // A client silent for the idle time is disconnected; one that does not read its answers as long
        // is too.
        setTimeout(client, SO_RCVTIMEO, seconds: limits.idleSeconds)
        setTimeout(client, SO_SNDTIMEO, seconds: limits.idleSeconds)
        var framer = LineFramer(limit: limits.maxLineBytes)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(client, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }  // EOF, error or idle: a partial line is dropped, nothing changes
            for item in framer.append(buffer[0..<count]) {
                lock.withLock { answering += 1 }
                defer { lock.withLock { answering -= 1 } }
                let answer: String
                switch item {
                case .line(let bytes):
                    let line = String(decoding: bytes, as: UTF8.self)
                    guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                    answer = respond(line)
                case .oversized(let bytes):
                    answer = VirtualDevice.answer(
                        error: "a request of \(bytes) bytes is over the \(limits.maxLineBytes)-byte limit: "
                            + "discarded, nothing of it was applied")
                }
                guard write(client, answer + "\n") else { return }
            }
        }
    }

    /// Sends all of `text`; false when the client is gone or stopped reading.
    private func write(_ client: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    private func setTimeout(_ client: Int32, _ option: Int32, seconds: Int) {
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    private func respond(_ line: String) -> String {
        BlockingAnswer.wait(for: line, handler)
    }
}
