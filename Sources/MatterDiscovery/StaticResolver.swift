import MatterCore

#if canImport(Glibc)
    import Glibc
#endif

/// A node's address given by the user (`--address HOST:PORT`) instead of found by DNS-SD.
/// Accepted forms: `10.0.0.5:5540`, `[fe80::1%lan0]:5540`, `[::1]:5540`, `localhost:5540`; without a
/// port (`10.0.0.5`, `::1`, `[fe80::1%3]`) the Matter default 5540 is used. The scope after `%` is an
/// interface name or index. Host names other than `localhost` are refused (no name lookups).
public struct DirectAddress: Sendable, Hashable, CustomStringConvertible {
    /// One or two addresses (`localhost` gives `::1` and `127.0.0.1`).
    package let addresses: [DNSSDAddress]
    public let port: UInt16

    package init(addresses: [DNSSDAddress], port: UInt16) {
        self.addresses = addresses
        self.port = port
    }

    public init(parsing text: String) throws(DiscoveryError) {
        let trimmed = text.trimmingSpaces
        var host = Substring(trimmed)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw .invalidAddress("'\(text)': missing ']' after the IPv6 address")
            }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .invalidAddress("'\(text)': expected ':PORT' after ']'") }
                portText = rest.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":"), host[host.index(after: colon)...].firstIndex(of: ":") == nil {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        var port = MatterDNSSD.defaultPort
        if let portText {
            guard let p = UInt16(portText), p != 0 else {
                throw .invalidAddress("'\(text)': port '\(portText)' is not a number between 1 and 65535")
            }
            port = p
        }
        var scope: UInt32 = 0
        if let percent = host.firstIndex(of: "%") {
            let name = String(host[host.index(after: percent)...])
            host = host[..<percent]
            if let index = UInt32(name) {
                scope = index
            } else {
                scope = if_nametoindex(name)
                guard scope != 0 else { throw .invalidAddress("'\(text)': no interface named '\(name)'") }
            }
        }
        if host.lowercased() == "localhost" {
            addresses = [DNSSDAddress("::1"), DNSSDAddress("127.0.0.1")].compactMap { $0 }
        } else if let address = DNSSDAddress(String(host), interfaceIndex: scope) {
            guard scope == 0 || address.family == .ipv6 else {
                throw .invalidAddress("'\(text)': only IPv6 addresses take a %scope")
            }
            addresses = [address]
        } else {
            throw .invalidAddress(
                "'\(text)': expected HOST:PORT with a numeric IPv4 or IPv6 address (IPv6 in brackets), or localhost")
        }
        self.port = port
    }

    public var description: String { addresses.map { $0.hostPort(port) }.joined(separator: ", ") }
}

/// Answers every discovery with the addresses the user gave (`--address HOST:PORT`), ignoring the
/// filter: the user has said where the node is. Commissionable results carry no advertisement
/// (nothing was advertised); operational results take fabric and node IDs from the filter (0 when
/// the filter does not name them) and default MRP parameters.
package struct StaticResolver: MatterNodeBrowser {
    package let targets: [DirectAddress]

    package init(_ targets: [DirectAddress]) { self.targets = targets }

    /// Parses each `HOST:PORT`.
    package init(parsing texts: [String]) throws(DiscoveryError) {
        var targets: [DirectAddress] = []
        for text in texts { targets.append(try DirectAddress(parsing: text)) }
        self.targets = targets
    }

    package func discoverCommissionable(
        _ filter: CommissionableFilter, timeout: Duration, limit: Int? = nil
    ) async throws(DiscoveryError) -> [DiscoveredCommissionableNode] {
        let nodes = targets.map { target in
            DiscoveredCommissionableNode(
                instanceName: filter.instanceNameIfAny ?? target.description, hostName: "", port: target.port,
                addresses: target.addresses, advertisement: nil, txt: DNSSDTXTRecord())
        }
        return Array(nodes.prefix(limit ?? nodes.count))
    }

    package func discoverOperational(
        _ filter: OperationalFilter, timeout: Duration, limit: Int? = nil
    ) async throws(DiscoveryError) -> [DiscoveredOperationalNode] {
        let ids: (UInt64, NodeID) =
            switch filter {
            case .any: (0, .unspecified)
            case .compressedFabricID(let c): (c, .unspecified)
            case .node(let c, let n): (c, n)
            }
        let nodes = targets.map { target in
            DiscoveredOperationalNode(
                advertisement: OperationalAdvertisement(
                    compressedFabricID: ids.0, nodeID: ids.1, port: target.port, sessionParameters: MRPAdvertisement()),
                hostName: "", port: target.port, addresses: target.addresses, txt: DNSSDTXTRecord())
        }
        return Array(nodes.prefix(limit ?? nodes.count))
    }
}

extension CommissionableFilter {
    var instanceNameIfAny: String? {
        if case .instanceName(let name) = self { return name }
        return nil
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
