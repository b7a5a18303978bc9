/// Which mDNS implementation a process publishes and browses through (`--mdns avahi|embedded|auto`).
public enum MDNSBackend: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The host's avahi-daemon over the system D-Bus (`AvahiDNSSD`).
    case avahi
    /// Our own responder and querier on port 5353 (`EmbeddedMDNS`), for hosts without a daemon or D-Bus.
    case embedded
    /// Avahi when a daemon answers on D-Bus, else the embedded one.
    case auto

    public var description: String { rawValue }

    /// Starts the implementation. `interface`: the embedded one runs on that interface only (default: every
    /// interface that is up, multicast-capable and not loopback); Avahi publishes on the daemon's interfaces.
    /// Throws `.daemonUnavailable` (avahi) or `.network` (embedded); `auto` throws only when both fail.
    package func start(label: String, publishing: DNSSDPublishing = .rawRecords, interface: String? = nil)
        async throws(DiscoveryError) -> any DNSSDService
    {
        switch self {
        case .avahi:
            return try await AvahiDNSSD.start(label: label, publishing: publishing)
        case .embedded:
            return try await EmbeddedMDNS.start(
                try MDNSBackend.embeddedConfiguration(interface: interface), label: label)
        case .auto:
            do {
                return try await AvahiDNSSD.start(label: label, publishing: publishing)
            } catch .daemonUnavailable(let detail) {
                do {
                    return try await EmbeddedMDNS.start(
                        try MDNSBackend.embeddedConfiguration(interface: interface), label: label)
                } catch {
                    throw .network("no Avahi daemon (\(detail)), and the embedded mDNS responder failed: \(error)")
                }
            }
        }
    }

    static func embeddedConfiguration(interface: String?) throws(DiscoveryError) -> EmbeddedMDNS.Configuration {
        guard let interface else { return EmbeddedMDNS.Configuration() }
        guard let found = MDNSInterface.named(interface) else {
            throw .network("no network interface named '\(interface)'")
        }
        return EmbeddedMDNS.Configuration(interfaces: [found])
    }
}
