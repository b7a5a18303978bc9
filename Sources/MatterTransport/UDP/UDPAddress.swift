#if canImport(Glibc)
    import Glibc
#endif

/// A UDP peer: an IPv6 address (IPv4 as `::ffff:a.b.c.d`), a port, and for link-local addresses the
/// interface (scope id) to use, carried from receive or from discovery into every send.
public struct UDPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 16 address bytes in network order.
    package let ip: [UInt8]
    package let port: UInt16
    /// Interface index; required for `fe80::/10` destinations on a host with several links.
    package let scopeID: UInt32

    /// Parses a numeric IPv6 (optionally `%interface` or `%index`) or IPv4 address. Nil when `host`
    /// is not a numeric address or names an unknown interface.
    package init?(host: String, port: UInt16) {
        var text = host
        var scope: UInt32 = 0
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let percent = text.firstIndex(of: "%") {
            let zone = String(text[text.index(after: percent)...])
            text = String(text[..<percent])
            if let index = UInt32(zone) {
                scope = index
            } else {
                scope = if_nametoindex(zone)
                guard scope != 0 else { return nil }
            }
        }
        var a6 = in6_addr()
        if inet_pton(AF_INET6, text, &a6) == 1 {
            ip = withUnsafeBytes(of: a6) { Array($0) }
        } else {
            var a4 = in_addr()
            guard scope == 0, inet_pton(AF_INET, text, &a4) == 1 else { return nil }
            ip = UDPAddress.v4MappedPrefix + withUnsafeBytes(of: a4) { Array($0) }
        }
        self.port = port
        self.scopeID = scope
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT` or `[fe80::1%eth0]:PORT`.
    package init?(endpoint: String) {
        guard let colon = endpoint.lastIndex(of: ":"), let port = UInt16(endpoint[endpoint.index(after: colon)...])
        else { return nil }
        let host = String(endpoint[..<colon])
        // A bare IPv6 address without brackets is ambiguous with its port: require brackets.
        if host.contains(":"), !host.hasPrefix("[") { return nil }
        self.init(host: host, port: port)
    }

    package init(ip: [UInt8], port: UInt16, scopeID: UInt32 = 0) {
        self.ip = ip.count == 4 ? UDPAddress.v4MappedPrefix + ip : ip
        self.port = port
        self.scopeID = scopeID
    }

    init(_ sa: sockaddr_in6) {
        ip = withUnsafeBytes(of: sa.sin6_addr) { Array($0) }
        port = UInt16(bigEndian: sa.sin6_port)
        scopeID = sa.sin6_scope_id
    }

    static let v4MappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]

    /// True for `::ffff:a.b.c.d`.
    package var isIPv4: Bool { ip.count == 16 && Array(ip.prefix(12)) == UDPAddress.v4MappedPrefix }

    /// True for `fe80::/10`.
    package var isLinkLocal: Bool { ip.count == 16 && ip[0] == 0xFE && ip[1] & 0xC0 == 0x80 }

    var sockaddr: sockaddr_in6 {
        var sa = sockaddr_in6()
        sa.sin6_family = sa_family_t(AF_INET6)
        sa.sin6_port = port.bigEndian
        sa.sin6_scope_id = scopeID
        withUnsafeMutableBytes(of: &sa.sin6_addr) { $0.copyBytes(from: ip.prefix(16)) }
        return sa
    }

    /// The address without port, as text (`192.0.2.1`, `fe80::1%2`).
    package var hostText: String {
        if isIPv4 { return ip[12...].map { String($0) }.joined(separator: ".") }
        var a6 = in6_addr()
        withUnsafeMutableBytes(of: &a6) { $0.copyBytes(from: ip.prefix(16)) }
        var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &a6, &buf, socklen_t(buf.count)) != nil else { return "?" }
        let text = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return scopeID != 0 ? "\(text)%\(scopeID)" : text
    }

    public var description: String { isIPv4 ? "\(hostText):\(port)" : "[\(hostText)]:\(port)" }
}
