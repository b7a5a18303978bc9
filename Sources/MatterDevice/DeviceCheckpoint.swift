/// Named moments of commissioning on a device, for crash-consistency tests: a device calls
/// ``VirtualDeviceConfiguration/checkpoint`` at each one, on its queue, and a test hook may end the
/// process there (`kill(getpid(), SIGKILL)`, which is what an outside `kill -9` at that instant does).
///
/// What the device holds durably at each point: nothing of a commissioning is written until
/// CommissioningComplete commits it (fabric, NOC, keys and ACL in one transaction), so a device that
/// dies at any point before ``fabricCommitted`` restarts without the new fabric, as if its fail-safe
/// had expired (spec 11.10.7.2.2: an armed fail-safe is rolled back on reboot).
public enum DeviceCheckpoint: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A PASE session was established (the device armed its 60 s fail-safe).
    case paseEstablished = "pase-established"
    /// ArmFailSafe took effect; its response is not sent yet.
    case armFailSafe = "arm-fail-safe"
    /// CSRRequest generated the operational key; the CSRResponse is not sent yet.
    case csrRequest = "csr-request"
    /// AddTrustedRootCertificate recorded the pending root; its response is not sent yet.
    case addTrustedRootCertificate = "add-trusted-root-certificate"
    /// AddNOC added the fabric (pending under the fail-safe, in memory only: AddNOC writes nothing);
    /// its NOCResponse is not sent yet.
    case addNOC = "add-noc"
    /// An ACL write took effect in memory; it is not persisted yet.
    case aclWritten = "acl-written"
    /// An ACL write was persisted; its response is not sent yet.
    case aclPersisted = "acl-persisted"
    /// CommissioningComplete was accepted; the fabric is not committed (persisted) yet.
    case commissioningCompleteReceived = "commissioning-complete-received"
    /// The commit transaction of CommissioningComplete is written; the response is not sent yet.
    case fabricCommitted = "fabric-committed"

    /// The point's name, e.g. `add-noc`.
    public var description: String { rawValue }
}
