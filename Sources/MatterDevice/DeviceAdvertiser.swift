import MatterCore
import MatterDiscovery
import Synchronization

/// Keeps a device's DNS-SD records equal to what its state says they should be: `_matterc._udp`
/// while a commissioning window is open (and no PASE session runs), `_matter._tcp` per fabric. State
/// changes on the node queue take a ticket (``nextWish()``, in the order the changes happen) and call
/// `want(_:wish:)` from a task; tasks may reach the actor in any order, so a wish older than one
/// already taken is dropped. One task at a time applies the newest wish through the advertiser, so
/// fast changes never publish out of order (a fabric removed, then the window reopened, once left the
/// device commissionable but not advertised when the first wish arrived last).
actor DeviceAdvertiser {
    /// One wished-for record, keyed by what it stands for.
    enum Key: Hashable, Sendable {
        case commissionable
        case operational(compressedFabricID: UInt64, nodeID: NodeID)
    }

    enum Record: Equatable, Sendable {
        case commissionable(CommissionableAdvertisement)
        case operational(OperationalAdvertisement)

        var serviceRecord: DNSSDServiceRecord? {
            switch self {
            case .commissionable(let a): try? a.serviceRecord()
            case .operational(let a): try? a.serviceRecord()
            }
        }
    }

    private let advertiser: any DNSSDAdvertiser
    private var published: [Key: (id: DNSSDPublicationID, record: Record)] = [:]
    private(set) var wished: [Key: Record] = [:]
    private var running = false
    private var newestWish: UInt64 = 0
    private let tickets = Mutex<UInt64>(0)
    private let log = Logger(label: "dnssd")

    init(advertiser: any DNSSDAdvertiser) {
        self.advertiser = advertiser
    }

    /// A number for the next wish, in the order of the calls (taken where the state changed).
    nonisolated func nextWish() -> UInt64 {
        tickets.withLock { ticket in
            ticket += 1
            return ticket
        }
    }

    /// Replaces the wished-for set of records, unless a newer wish (a higher `wish`) came first.
    func want(_ records: [Key: Record], wish: UInt64) {
        guard wish > newestWish else { return }
        newestWish = wish
        wished = records
        guard !running else { return }
        running = true
        Task { await self.apply() }
    }

    private func apply() async {
        while true {
            let target = wished
            for (key, entry) in published where target[key] == nil {
                await advertiser.withdraw(entry.id)
                published[key] = nil
            }
            for (key, record) in target where published[key]?.record != record {
                guard let service = record.serviceRecord else { continue }
                do {
                    if let existing = published[key] {
                        try await advertiser.update(existing.id, to: service)
                        published[key] = (existing.id, record)
                    } else {
                        published[key] = (try await advertiser.publish(service), record)
                    }
                } catch {
                    log.warning("DNS-SD \(key): \(error)")
                }
            }
            if wished == target { break }
        }
        running = false
    }

    /// Withdraws everything.
    func stop() async {
        newestWish = UInt64.max
        wished = [:]
        for entry in published.values { await advertiser.withdraw(entry.id) }
        published = [:]
    }
}
