internal import CMatterPOSIX
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One received mDNS datagram.
struct MDNSDatagram: Sendable {
    var bytes: [UInt8]
    /// The sender's address (4 or 16 bytes) and port.
    var source: [UInt8]
    var sourcePort: UInt16
    /// The interface it arrived on (0 when the kernel did not say).
    var interfaceIndex: UInt32
}

/// The mDNS socket of one address family (RFC 6762 §11, §15): bound to the wildcard address and `port` (5353)
/// shared with other responders on the host (SO_REUSEADDR, SO_REUSEPORT), joined to 224.0.0.251 or ff02::fb
/// on the chosen interfaces only (IP_MULTICAST_ALL off), multicast looped back so that other processes of
/// this host hear us, TTL/hop limit 255. Reads run on `queue` through a Dispatch read source.
///
/// Concurrency contract (hence `@unchecked Sendable`): `source`, the buffers and the send path (which sets
/// the outgoing interface before each multicast send) are used only on `queue`; the rest is immutable.
final class MDNSSocket: @unchecked Sendable {
    enum Family: Sendable { case ipv4, ipv6 }

    static let ipv4Group: [UInt8] = [224, 0, 0, 251]
    static let ipv6Group: [UInt8] = [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFB]
    static let maximumDatagram = DNSMessage.maxBytes
    static let readsPerWakeup = 64

    let family: Family
    let port: UInt16
    let interfaces: [MDNSInterface]
    let queue: DispatchQueue
    private let fd: Int32
    private var source: DispatchSourceRead?
    private var sourceOwnsDescriptor = false
    private let receiveBuffer: UnsafeMutableRawBufferPointer
    private let controlBuffer: UnsafeMutableRawBufferPointer

    init(family: Family, port: UInt16, interfaces: [MDNSInterface], queue: DispatchQueue) throws(DiscoveryError) {
        self.family = family
        self.port = port
        self.interfaces = interfaces
        self.queue = queue
        let domain = family == .ipv4 ? AF_INET : AF_INET6
        let fd = socket(
            domain, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw MDNSSocket.error("socket", errno) }
        do throws(DiscoveryError) {
            try MDNSSocket.set(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
            try MDNSSocket.set(fd, SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT")
            // A fleet's start floods the group with probes and announcements: room for a few thousand
            // datagrams (best effort; the kernel caps it at net.core.rmem_max).
            try? MDNSSocket.set(fd, SOL_SOCKET, SO_RCVBUF, 4 << 20, "SO_RCVBUF")
            switch family {
            case .ipv4:
                try MDNSSocket.set(fd, Int32(IPPROTO_IP), IP_PKTINFO, 1, "IP_PKTINFO")
                try MDNSSocket.set(fd, Int32(IPPROTO_IP), IP_MULTICAST_ALL, 0, "IP_MULTICAST_ALL")
                try MDNSSocket.set(fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP")
                try MDNSSocket.set(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, 255, "IP_MULTICAST_TTL")
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr.s_addr = INADDR_ANY
                try MDNSSocket.bind(fd, &address, "bind 0.0.0.0:\(port)")
                for interface in interfaces {
                    var request = ip_mreqn()
                    request.imr_multiaddr = MDNSSocket.inAddr(MDNSSocket.ipv4Group)
                    request.imr_ifindex = Int32(interface.index)
                    guard
                        setsockopt(
                            fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
                            == 0
                    else {
                        throw MDNSSocket.error("IP_ADD_MEMBERSHIP 224.0.0.251 on \(interface.name)", errno)
                    }
                }
            case .ipv6:
                try MDNSSocket.set(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1, "IPV6_V6ONLY")
                try MDNSSocket.set(fd, Int32(IPPROTO_IPV6), IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO")
                try MDNSSocket.set(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_ALL, 0, "IPV6_MULTICAST_ALL")
                try MDNSSocket.set(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, 1, "IPV6_MULTICAST_LOOP")
                try MDNSSocket.set(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, 255, "IPV6_MULTICAST_HOPS")
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                address.sin6_addr = in6addr_any
                try MDNSSocket.bind(fd, &address, "bind [::]:\(port)")
                for interface in interfaces {
                    var request = ipv6_mreq()
                    request.ipv6mr_multiaddr = MDNSSocket.in6Addr(MDNSSocket.ipv6Group)
                    request.ipv6mr_interface = interface.index
                    guard
                        setsockopt(
                            fd, Int32(IPPROTO_IPV6), IPV6_ADD_MEMBERSHIP, &request,
                            socklen_t(MemoryLayout<ipv6_mreq>.size)) == 0
                    else {
                        throw MDNSSocket.error("IPV6_ADD_MEMBERSHIP ff02::fb on \(interface.name)", errno)
                    }
                }
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
        receiveBuffer = .allocate(byteCount: MDNSSocket.maximumDatagram, alignment: 16)
        controlBuffer = .allocate(byteCount: 256, alignment: MemoryLayout<cmsghdr>.alignment)
    }

    deinit {
        if sourceOwnsDescriptor { source?.cancel() } else { Glibc.close(fd) }
        receiveBuffer.deallocate()
        controlBuffer.deallocate()
    }

    /// Starts delivering datagrams to `handler` on `queue`. Call once.
    func start(_ handler: @escaping (MDNSDatagram) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in
            for _ in 0..<MDNSSocket.readsPerWakeup {
                guard let datagram = self.receiveOne() else { return }
                handler(datagram)
            }
        }
        let fd = self.fd
        source.setCancelHandler { Glibc.close(fd) }
        self.source = source
        sourceOwnsDescriptor = true
        source.resume()
    }

    /// Stops reading and closes the socket. On `queue`; idempotent.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        source?.cancel()
        source = nil
    }

    /// Sends `bytes` to the group on every interface (on `queue`). Failures are returned, not thrown: one
    /// interface going down must not stop the others.
    @discardableResult
    func sendMulticast(_ bytes: [UInt8]) -> [DiscoveryError] {
        dispatchPrecondition(condition: .onQueue(queue))
        var failures: [DiscoveryError] = []
        for interface in interfaces {
            switch family {
            case .ipv4:
                // The interface's own address as the source (else the kernel may pick another interface's,
                // and a QU or legacy answer would go to that address).
                var request = ip_mreqn()
                request.imr_ifindex = Int32(interface.index)
                if let own = interface.ipv4.first { request.imr_address = MDNSSocket.inAddr(own) }
                guard
                    setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
                        == 0
                else {
                    failures.append(MDNSSocket.error("IP_MULTICAST_IF \(interface.name)", errno))
                    continue
                }
            case .ipv6:
                var index = Int32(bitPattern: interface.index)
                guard
                    setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &index, socklen_t(MemoryLayout<Int32>.size))
                        == 0
                else {
                    failures.append(MDNSSocket.error("IPV6_MULTICAST_IF \(interface.name)", errno))
                    continue
                }
            }
            let group = family == .ipv4 ? MDNSSocket.ipv4Group : MDNSSocket.ipv6Group
            if let failure = send(bytes, to: group, port: port, scope: interface.index) { failures.append(failure) }
        }
        return failures
    }

    /// Sends `bytes` to one address (4 or 16 bytes) and port; `scope` is used for IPv6 link-local addresses.
    @discardableResult
    func send(_ bytes: [UInt8], to address: [UInt8], port: UInt16, scope: UInt32) -> DiscoveryError? {
        let sent: Int
        switch family {
        case .ipv4:
            guard address.count == 4 else { return .invalidAddress("not an IPv4 address") }
            var destination = sockaddr_in()
            destination.sin_family = sa_family_t(AF_INET)
            destination.sin_port = port.bigEndian
            destination.sin_addr = MDNSSocket.inAddr(address)
            sent = MDNSSocket.sendTo(fd, bytes, &destination)
        case .ipv6:
            guard address.count == 16 else { return .invalidAddress("not an IPv6 address") }
            var destination = sockaddr_in6()
            destination.sin6_family = sa_family_t(AF_INET6)
            destination.sin6_port = port.bigEndian
            destination.sin6_addr = MDNSSocket.in6Addr(address)
            destination.sin6_scope_id =
                address[0] == 0xFE && address[1] & 0xC0 == 0x80 || address[0] == 0xFF ? scope : 0
            sent = MDNSSocket.sendTo(fd, bytes, &destination)
        }
        return sent < 0 ? MDNSSocket.error("sendto", errno) : nil
    }

    private func receiveOne() -> MDNSDatagram? {
        var peer = sockaddr_in6()  // large enough for either family
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
                // Read errors (EAGAIN: drained; an ICMP error) end this wake-up; the source fires again if needed.
                let n = recvmsg(fd, &message, 0)
                guard n >= 0 else { return nil }
                var interface: UInt32 = 0
                var control = CMatterPOSIX_CMSG_FIRSTHDR(&message)
                while let header = control {
                    if let data = CMatterPOSIX_CMSG_DATA(header) {
                        if header.pointee.cmsg_level == Int32(IPPROTO_IP), header.pointee.cmsg_type == IP_PKTINFO {
                            interface = UInt32(
                                bitPattern: data.loadUnaligned(as: CMatterPOSIX_in_pktinfo.self).ipi_ifindex)
                        } else if header.pointee.cmsg_level == Int32(IPPROTO_IPV6),
                            header.pointee.cmsg_type == IPV6_PKTINFO
                        {
                            interface = data.loadUnaligned(as: CMatterPOSIX_in6_pktinfo.self).ipi6_ifindex
                        }
                    }
                    control = CMatterPOSIX_CMSG_NXTHDR(&message, header)
                }
                let (source, sourcePort): ([UInt8], UInt16) =
                    family == .ipv4
                    ? UnsafeMutableRawPointer(peerPointer).withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        (withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }, UInt16(bigEndian: $0.pointee.sin_port))
                    }
                    : (
                        withUnsafeBytes(of: peerPointer.pointee.sin6_addr) { Array($0) },
                        UInt16(bigEndian: peerPointer.pointee.sin6_port)
                    )
                return MDNSDatagram(
                    bytes: Array(UnsafeRawBufferPointer(rebasing: receiveBuffer[..<n])), source: source,
                    sourcePort: sourcePort, interfaceIndex: interface)
            }
        }
    }

    // MARK: - C calls, wrapped once

    private static func error(_ call: String, _ code: Int32) -> DiscoveryError {
        .network("\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }

    private static func set(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32, _ label: String)
        throws(DiscoveryError)
    {
        var v = value
        guard setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw error("setsockopt \(label)", errno)
        }
    }

    private static func bind<Address>(_ fd: Int32, _ address: inout Address, _ label: String) throws(DiscoveryError) {
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard rc == 0 else { throw error(label, errno) }
    }

    private static func sendTo<Address>(_ fd: Int32, _ bytes: [UInt8], _ address: inout Address) -> Int {
        bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<Address>.size))
                }
            }
        }
    }

    private static func inAddr(_ bytes: [UInt8]) -> in_addr {
        var address = in_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(4)) }
        return address
    }

    private static func in6Addr(_ bytes: [UInt8]) -> in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
        return address
    }
}
