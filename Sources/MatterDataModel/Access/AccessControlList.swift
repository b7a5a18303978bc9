import MatterCore
package import MatterInteraction

/// The spec's access-control evaluation (6.6.6) over a list of ``AccessControlEntry`` values: the
/// device (MatterDevice's AccessControl cluster) stores entries here; the data model asks.
///
/// A PASE session has implicit Administer over everything while ``grantsPASEAdminister`` is true
/// (the commissioning rule; the SDK keeps it for every PASE session). Any other subject needs an entry
/// of its own fabric and auth mode that grants the privilege, names it (or no one in particular), and
/// targets the endpoint and cluster (or the whole node). A subject without a fabric gets nothing.
/// Confined to the node's queue.
package final class AccessControlList: AccessPolicy {
    /// The entries of every fabric.
    package var entries: [AccessControlEntry]
    /// PASE sessions have implicit Administer (commissioning).
    package var grantsPASEAdminister: Bool

    package init(entries: [AccessControlEntry] = [], grantsPASEAdminister: Bool = true) {
        self.entries = entries
        self.grantsPASEAdminister = grantsPASEAdminister
    }

    package func allows(_ subject: SubjectDescriptor, _ request: AccessRequest) -> Bool {
        if subject.authMode == .pase, grantsPASEAdminister { return true }
        guard subject.hasFabric else { return false }
        return entries.contains { $0.grants(subject, request) }
    }

    /// The entries of one fabric, in order.
    package func entries(fabric: UInt8) -> [AccessControlEntry] { entries.filter { $0.fabricIndex == fabric } }

    /// Replaces one fabric's entries (an ACL write replaces only the accessing fabric's), stamping them
    /// with `fabric`.
    package func replaceEntries(fabric: UInt8, with replacement: [AccessControlEntry]) {
        entries.removeAll { $0.fabricIndex == fabric }
        entries += replacement.map { entry in
            var entry = entry
            entry.fabricIndex = fabric
            return entry
        }
    }

    /// Forgets a removed fabric's entries.
    package func removeFabric(_ fabric: UInt8) { entries.removeAll { $0.fabricIndex == fabric } }
}
