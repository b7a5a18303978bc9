/// A running DNS-SD implementation that both publishes and browses, and can be stopped: `AvahiDNSSD` or
/// `EmbeddedMDNS`, as `MDNSBackend.start` picks.
package protocol DNSSDService: DNSSDAdvertiser, DNSSDBrowser {
    /// Which implementation this is (never `.auto`).
    var backend: MDNSBackend { get }
    /// Withdraws everything (goodbyes go out) and releases the implementation's resources. Idempotent.
    func stop() async
}

extension AvahiDNSSD: DNSSDService {
    package nonisolated var backend: MDNSBackend { .avahi }
}

extension EmbeddedMDNS: DNSSDService {
    package nonisolated var backend: MDNSBackend { .embedded }
}
