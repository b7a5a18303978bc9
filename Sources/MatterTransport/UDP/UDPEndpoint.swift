internal import CMatterPOSIX
public import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One received datagram with where it came from and where it arrived.
public struct Datagram: Sendable {
    public var bytes: [UInt8]
    public var source: UDPAddress
    /// The local address it was sent to (from `IPV6_PKTINFO`), if the kernel said.
    public var localAddress: [UInt8]?
    /// The interface it arrived on.
    public var interfaceIndex: UInt32
}

/// A socket call that failed, with the errno text.
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// A dual-stack (IPv6 with v4-mapped IPv4), non-blocking UDP socket whose reads are driven by a
/// `DispatchSourceRead` on the owner's serial queue.
///
/// Concurrency contract (hence `@unchecked Sendable`): `source` and the receive buffers are touched
/// only on `queue`; `fd` and `port` are immutable; `send` may run on any thread (sendmsg is).
public final class UDPEndpoint: @unchecked Sendable {
    /// Datagrams read per wake-up at most, so one busy socket cannot starve its queue.
    static let readsPerWakeup = 64
    /// Largest datagram read; Matter messages are at most 1280 bytes on IPv6.
    static let maximumDatagram = 2048

    public let queue: DispatchQueue
    /// The bound local port.
    public let port: UInt16
    private let fd: Int32
    private var source: DispatchSourceRead?
    /// Set by `start`: from then on the read source's cancel handler closes `fd`.
    private var sourceOwnsDescriptor = false
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    private let controlBuffer: UnsafeMutableRawBufferPointer

    /// Binds `[::]:port` (0 picks a free port), optionally to one interface by name.
    public init(port: UInt16 = 0, interface: String? = nil, queue: DispatchQueue) throws(SocketError) {
        self.queue = queue
        let fd = socket(
            AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        do throws(SocketError) {
            try UDPEndpoint.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0, "IPV6_V6ONLY")
            try UDPEndpoint.setOption(fd, Int32(IPPROTO_IPV6), IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO")
            if let interface {
                var name = Array(interface.utf8CString)
                let rc = setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, &name, socklen_t(name.count))
                guard rc == 0 else { throw SocketError(call: "SO_BINDTODEVICE \(interface)", code: errno) }
            }
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = port.bigEndian
            sa.sin6_addr = in6addr_any
            let bound = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            guard bound == 0 else { throw SocketError(call: "bind port \(port)", code: errno) }
            var local = sockaddr_in6()
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let named = withUnsafeMutablePointer(to: &local) {
                $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw SocketError(call: "getsockname", code: errno) }
            self.port = UInt16(bigEndian: local.sin6_port)
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
        receiveBuffer = .allocate(byteCount: UDPEndpoint.maximumDatagram, alignment: 16)
        controlBuffer = .allocate(byteCount: 256, alignment: MemoryLayout<cmsghdr>.alignment)
    }

    deinit {
        if sourceOwnsDescriptor { source?.cancel() } else { Glibc.close(fd) }
        receiveBuffer.deallocate()
        controlBuffer.deallocate()
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32, _ label: String)
        throws(SocketError)
    {
        var v = value
        guard setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError(call: "setsockopt \(label)", code: errno)
        }
    }

    /// Set before `start`; read only on `queue` (the read source's handler).
    private var unreachableHandler: (@Sendable (UDPAddress) -> Void)?

    /// Asks the kernel for ICMP errors on this socket (IPv6, and IPv4 through the v4-mapped path)
    /// and hands each "port unreachable" to `handler` with the datagram's destination. Only sockets
    /// that ask get them: with the errors on, the next `sendto` after one fails once (to any peer).
    /// Best effort: where the options are refused a closed port shows only when MRP gives up.
    public func onPortUnreachable(_ handler: @escaping @Sendable (UDPAddress) -> Void) {
        unreachableHandler = handler
        try? UDPEndpoint.setOption(fd, Int32(IPPROTO_IPV6), IPV6_RECVERR, 1, "IPV6_RECVERR")
        try? UDPEndpoint.setOption(fd, Int32(IPPROTO_IP), IP_RECVERR, 1, "IP_RECVERR")
    }

    /// Starts delivering datagrams to `handler`, on `queue`. Call once.
    public func start(_ handler: @escaping @Sendable (Datagram) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            for read in 0..<UDPEndpoint.readsPerWakeup {
                switch self.receiveOne() {
                case .datagram(let datagram): handler(datagram)
                case .pendingError: self.drainErrorQueue()
                case .none:
                    // Woken with nothing to read: an ICMP error waits on the error queue (it keeps the
                    // socket signalled until read).
                    if read == 0 { self.drainErrorQueue() }
                    return
                }
            }
        }
        let fd = self.fd
        // Close only once the source is cancelled, so no read races a reused descriptor.
        source.setCancelHandler { Glibc.close(fd) }
        self.source = source
        sourceOwnsDescriptor = true
        source.resume()
    }

    /// Stops reading and closes the socket. Must be called on `queue`; idempotent.
    public func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        source?.cancel()
        source = nil
    }

    private enum Received {
        case datagram(Datagram)
        /// The socket reported an error (an ICMP message): its queue holds the details.
        case pendingError
    }

    /// Reads the socket's error queue: each ICMP "port unreachable" for one of our datagrams goes to
    /// the unreachable handler with the datagram's destination; other errors are dropped.
    private func drainErrorQueue() {
        for _ in 0..<UDPEndpoint.readsPerWakeup {
            var destination = sockaddr_in6()
            var iov = iovec(iov_base: receiveBuffer.baseAddress, iov_len: receiveBuffer.count)
            let refused: Bool? = withUnsafeMutablePointer(to: &destination) { destinationPointer in
                withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var message = msghdr()
                    message.msg_name = UnsafeMutableRawPointer(destinationPointer)
                    message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in6>.size)
                    message.msg_iov = iovPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBuffer.baseAddress
                    message.msg_controllen = controlBuffer.count
                    guard recvmsg(fd, &message, Int32(MSG_ERRQUEUE)) >= 0 else { return nil }
                    var refused = false
                    var control = CMatterPOSIX_CMSG_FIRSTHDR(&message)
                    while let header = control {
                        let level = header.pointee.cmsg_level
                        let type = header.pointee.cmsg_type
                        if (level == Int32(IPPROTO_IPV6) && type == IPV6_RECVERR)
                            || (level == Int32(IPPROTO_IP) && type == IP_RECVERR),
                            let data = CMatterPOSIX_CMSG_DATA(header)
                        {
                            // struct sock_extended_err starts with ee_errno (u32).
                            refused = data.loadUnaligned(as: UInt32.self) == UInt32(ECONNREFUSED)
                        }
                        control = CMatterPOSIX_CMSG_NXTHDR(&message, header)
                    }
                    return refused
                }
            }
            guard let refused else { return }  // EAGAIN: the queue is empty
            if refused, destination.sin6_family == sa_family_t(AF_INET6) {
                unreachableHandler?(UDPAddress(destination))
            }
        }
    }

    private func receiveOne() -> Received? {
        var peer = sockaddr_in6()
        var iov = iovec(iov_base: receiveBuffer.baseAddress, iov_len: receiveBuffer.count)
        return withUnsafeMutablePointer(to: &peer) { peerPointer in
            withUnsafeMutablePointer(to: &iov) { iovPointer in
                var message = msghdr()
                message.msg_name = UnsafeMutableRawPointer(peerPointer)
                message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in6>.size)
                message.msg_iov = iovPointer
                message.msg_iovlen = 1
                message.msg_control = controlBuffer.baseAddress
                message.msg_controllen = controlBuffer.count
                let n = recvmsg(fd, &message, 0)
                guard n >= 0 else {
                    // EAGAIN: drained. An ICMP error is reported once as the call's errno.
                    let code = errno
                    return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? nil : .pendingError
                }
                var local: [UInt8]?
                var interface: UInt32 = 0
                var control = CMatterPOSIX_CMSG_FIRSTHDR(&message)
                while let header = control {
                    if header.pointee.cmsg_level == Int32(IPPROTO_IPV6), header.pointee.cmsg_type == IPV6_PKTINFO,
                        let data = CMatterPOSIX_CMSG_DATA(header)
                    {
                        let info = data.loadUnaligned(as: CMatterPOSIX_in6_pktinfo.self)
                        local = withUnsafeBytes(of: info.ipi6_addr) { Array($0) }
                        interface = info.ipi6_ifindex
                    }
                    control = CMatterPOSIX_CMSG_NXTHDR(&message, header)
                }
                let bytes = Array(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<n]))
                return .datagram(
                    Datagram(
                        bytes: bytes, source: UDPAddress(peerPointer.pointee), localAddress: local,
                        interfaceIndex: interface))
            }
        }
    }

    /// Sends one datagram. A full socket buffer (EAGAIN) is an error the caller may ignore: MRP resends.
    public func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        var sa = destination.sockaddr
        let rc = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        if rc < 0 {
            let code = errno
            // An earlier datagram's ICMP error is reported here once, for no peer in particular: its
            // destination waits on the error queue, read on the socket's queue.
            if code == ECONNREFUSED { queue.async { [weak self] in self?.drainErrorQueue() } }
            throw SocketError(call: "sendto \(destination)", code: code)
        }
    }
}
