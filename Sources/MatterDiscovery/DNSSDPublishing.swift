/// How `AvahiDNSSD` hands a service to the daemon.
public enum DNSSDPublishing: Sendable, Hashable {
    /// The service's PTR, SRV and TXT as raw records: PTRs shared, SRV and TXT unique without
    /// probing (RFC 6762 §8.1: Matter instance names are unique by construction), so the records are
    /// answerable and announced at once. A copy of the SRV record is probed in a second entry group in
    /// the background, so a name conflict is still detected and the newcomer renames.
    case rawRecords
    /// `avahi_entry_group_add_service`: Avahi probes the name (about 0.75 s, three probes) before the
    /// service is announced or answered.
    case probedServices
}
