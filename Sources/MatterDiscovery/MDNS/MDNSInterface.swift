#if canImport(Glibc)
    import Glibc
#endif

/// A network interface the embedded responder may use: its index, name and addresses.
package struct MDNSInterface: Sendable, Hashable, CustomStringConvertible {
    package let name: String
    package let index: UInt32
    /// IPv4 addresses (4 bytes each) and IPv6 addresses (16 bytes each), in the order the kernel lists them.
    package let ipv4: [[UInt8]]
    package let ipv6: [[UInt8]]
    package let isLoopback: Bool
    /// Up and multicast-capable.
    package let isMulticastUp: Bool

    package var description: String { "\(name) (index \(index))" }

    /// Every interface of this network namespace (getifaddrs), addresses grouped per interface.
    package static func all() -> [MDNSInterface] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0, let first = head else { return [] }
        defer { freeifaddrs(head) }
        var order: [String] = []
        var found: [String: (flags: UInt32, v4: [[UInt8]], v6: [[UInt8]])] = [:]
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let cName = entry.pointee.ifa_name else { continue }
            let name = String(cString: cName)
            if found[name] == nil {
                order.append(name)
                found[name] = (entry.pointee.ifa_flags, [], [])
            }
            guard let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
                found[name]?.v4.append(bytes)
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                found[name]?.v6.append(bytes)
            default:
                break
            }
        }
        return order.compactMap { name -> MDNSInterface? in
            guard let info = found[name] else { return nil }
            let index = if_nametoindex(name)
            guard index != 0 else { return nil }
            let up = info.flags & UInt32(IFF_UP) != 0
            return MDNSInterface(
                name: name, index: index, ipv4: info.v4, ipv6: info.v6,
                isLoopback: info.flags & UInt32(IFF_LOOPBACK) != 0,
                isMulticastUp: up && info.flags & UInt32(IFF_MULTICAST) != 0)
        }
    }

    /// The interfaces mDNS runs on by default: up, multicast-capable, not loopback.
    package static func defaults() -> [MDNSInterface] { all().filter { $0.isMulticastUp && !$0.isLoopback } }

    /// The interface named `name`, or nil.
    package static func named(_ name: String) -> MDNSInterface? { all().first { $0.name == name } }
}
