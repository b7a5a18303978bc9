import Foundation
import Glibc

/// UDP ports for tests that must keep one port across a restart (a device killed and started again on its
/// state file and port). A port the kernel handed out for port 0 lies in the ephemeral range, where any other
/// test's socket may take it the moment its owner dies (a restarted device then found its port "already in
/// use", 1 CI run); these lie below that range, where only tests that name a port go.
package enum TestPorts {
    /// The first port of the kernel's ephemeral range (ip_local_port_range; 32768 when unreadable).
    package static var ephemeralLow: UInt16 {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
            let value = UInt16(first)
        else { return 32768 }
        return value
    }

    /// A random port in 20000 up to the ephemeral range that no UDP socket (IPv4 or IPv6) holds now.
    package static func freeUDP() -> UInt16 {
        let high = max(20001, min(ephemeralLow, 32768))
        var candidate = UInt16.random(in: 20000..<high)
        for _ in 0..<64 {
            if isFree(candidate) { return candidate }
            candidate = UInt16.random(in: 20000..<high)
        }
        return candidate
    }

    /// Whether a dual-stack UDP socket can bind `port` on the wildcard address.
    static func isFree(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var off: Int32 = 0
        _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = in6addr_any
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }
}
