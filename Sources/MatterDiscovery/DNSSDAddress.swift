#if canImport(Glibc)
    import Glibc
#endif

/// One address a service resolved to, with the index of the interface it was seen on. For an IPv6
/// link-local address the interface index is the scope id a socket needs (`sin6_scope_id`).
package struct DNSSDAddress: Sendable, Hashable, CustomStringConvertible {
    package enum Family: Sendable, Hashable { case ipv4, ipv6 }

    package let family: Family
    /// Canonical text form without scope, e.g. `10.213.0.1` or `fe80::1`.
    package let address: String
    /// Index of the interface the address was learnt on (0 when unknown or irrelevant).
    package let interfaceIndex: UInt32

    /// Builds from a numeric IPv4 or IPv6 literal (no scope suffix); nil when `text` is neither.
    /// The text is normalised (e.g. `FE80:0::1` becomes `fe80::1`).
    package init?(_ text: String, interfaceIndex: UInt32 = 0) {
        if let canonical = DNSSDAddress.canonical(text, family: AF_INET6) {
            family = .ipv6
            address = canonical
        } else if let canonical = DNSSDAddress.canonical(text, family: AF_INET) {
            family = .ipv4
            address = canonical
        } else {
            return nil
        }
        self.interfaceIndex = interfaceIndex
    }

    /// True for IPv6 fe80::/10.
    package var isLinkLocal: Bool {
        guard family == .ipv6, let first = address.split(separator: ":").first, let word = UInt16(first, radix: 16)
        else {
            return false
        }
        return word & 0xFFC0 == 0xFE80
    }

    /// The scope id to use in a socket address: the interface index for link-local IPv6, else 0.
    package var scopeID: UInt32 { isLinkLocal ? interfaceIndex : 0 }

    /// `fe80::1%3` for link-local IPv6 (scope kept as the interface index), the plain address otherwise.
    package var description: String { isLinkLocal && interfaceIndex != 0 ? "\(address)%\(interfaceIndex)" : address }

    /// `[fe80::1%3]:5540` or `10.0.0.1:5540`.
    package func hostPort(_ port: UInt16) -> String {
        family == .ipv6 ? "[\(description)]:\(port)" : "\(address):\(port)"
    }

    /// Builds from 4 (IPv4) or 16 (IPv6) address bytes in network order; nil for any other length.
    init?(bytes: [UInt8], interfaceIndex: UInt32 = 0) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        self.init(
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            interfaceIndex: interfaceIndex)
    }

    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    var bytes: [UInt8]? {
        var storage = [UInt8](repeating: 0, count: family == .ipv4 ? 4 : 16)
        guard inet_pton(family == .ipv4 ? AF_INET : AF_INET6, address, &storage) == 1 else { return nil }
        return storage
    }

    private static func canonical(_ text: String, family: Int32) -> String? {
        var storage = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, text, &storage) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, storage, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A resolved service instance: where it runs and what its TXT says, merged over every interface
/// and address family it was seen on.
package struct DNSSDResolvedService: Sendable, Hashable {
    package var serviceType: String
    package var instanceName: String
    /// Target host of the SRV record, e.g. `me-h1.local`.
    package var hostName: String
    package var port: UInt16
    package var txt: DNSSDTXTRecord
    /// Every address seen, in arrival order, without duplicates.
    package var addresses: [DNSSDAddress]

    package init(
        serviceType: String, instanceName: String, hostName: String, port: UInt16, txt: DNSSDTXTRecord,
        addresses: [DNSSDAddress]
    ) {
        self.serviceType = serviceType
        self.instanceName = instanceName
        self.hostName = hostName
        self.port = port
        self.txt = txt
        self.addresses = addresses
    }
}
