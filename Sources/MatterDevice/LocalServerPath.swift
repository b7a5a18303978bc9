internal import CMatterPOSIX
import Foundation

/// The file a local server creates at a path the user gave (the `--control` socket, the `--app-pipe`
/// FIFO), and the rules both keep: a path a live process serves is refused, a stale one (its server
/// gone) is replaced, and on exit only the file this process created is removed, recognised by its
/// device and inode (a second process that replaced it keeps its own).
struct LocalServerPath: Sendable {
    /// What is at a path before a server creates its file there.
    enum Occupant: Equatable {
        /// Nothing: the path is free.
        case none
        /// A socket or FIFO nobody serves (a killed server's leftover), with its identity.
        case stale(device: UInt64, inode: UInt64)
        /// A socket that accepts connections, or a FIFO that a process reads; `pid` when the kernel
        /// names the peer.
        case live(pid: Int32?)
        /// Something that is not the kind of file the server makes (a regular file, a directory...).
        case other
    }

    /// The kind of file the server makes.
    enum Kind {
        case socket
        case fifo

        var mode: mode_t { self == .socket ? S_IFSOCK : S_IFIFO }
    }

    /// The path as given.
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// Records the identity of the file just created at `path` (nil when it is gone already).
    init?(created path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.path = path
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Removes the file when it is still the one this process created; anything else (a file another
    /// process put there since) stays.
    func removeIfOurs() {
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return
        }
        unlink(path)
    }

    /// Whether `fd` is open on the file this process created.
    func isFile(_ fd: Int32) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// What is at `path` now, for a server of `kind`.
    static func occupant(of path: String, kind: Kind) -> Occupant {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .none }
        guard (status.st_mode & S_IFMT) == kind.mode else { return .other }
        let stale = Occupant.stale(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        switch kind {
        case .socket:
            return liveSocket(at: path) ?? stale
        case .fifo:
            // A writer's non-blocking open fails with ENXIO when no process has the FIFO open for reading.
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return stale }
            Foundation.close(fd)
            return .live(pid: nil)
        }
    }

    /// Removes a stale file at `path` when it is still the one `occupant` found (not one a server
    /// created since).
    static func removeStale(_ occupant: Occupant, at path: String) {
        guard case .stale(let device, let inode) = occupant else { return }
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else {
            return
        }
        unlink(path)
    }

    /// The Unix socket address of `path`; nil when it does not fit `sun_path`.
    static func socketAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    /// The longest path a Unix socket address holds.
    static var maximumSocketPathBytes: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// Connects to the socket at `path`: `.live` (with the serving process's pid when the kernel
    /// names it) when something accepts, nil when nothing does.
    private static func liveSocket(at path: String) -> Occupant? {
        guard var address = socketAddress(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { Foundation.close(fd) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // EAGAIN: a live server whose backlog is full.
        if connected != 0 { return errno == EAGAIN ? .live(pid: nil) : nil }
        var credentials = CMatterPOSIX_ucred()
        var length = socklen_t(MemoryLayout<CMatterPOSIX_ucred>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else {
            return .live(pid: nil)
        }
        return .live(pid: credentials.pid)
    }
}
