import MatterCore
import MatterCredentials
import MatterCrypto
import MatterSecureChannel
import MatterStorage

/// The controller's place on its fabric: the stored fabric, the certificate authority its root key
/// makes, and this process's own operational credentials.
///
/// The fabric is RCAC-only: the root issues NOCs directly (AddNOC's ICAC is optional, and the SDK
/// accepts chains without one). An intermediate would protect a root key kept offline; here the root
/// key lives beside the store anyway, so it would add bytes to every CASE handshake and nothing else.
///
/// The controller's own NOC is issued afresh in each process for a new operational key: devices
/// grant administration to the node ID (CaseAdminSubject), not to a key, so nothing about it needs
/// storing.
struct OperationalIdentity: Sendable {
    let fabric: ControllerFabric
    let authority: FabricAuthority
    /// The controller's credentials for CASE (fabric index 1 locally).
    let credentials: CASECredentials
    /// The compressed fabric ID (the first half of `_matter._tcp` instance names).
    let compressedFabricID: UInt64

    /// The node ID chip-tool uses for itself; devices' admin ACL entries name it.
    static let controllerNodeID = NodeID(112_233)
    /// The admin vendor ID sent with AddNOC (the test vendor, as chip-tool).
    static let adminVendorID = VendorID.testVendor1

    /// Loads the store's fabric, creating it first when the store has none. When several processes
    /// create it at once, all end up with the one that committed first.
    static func loadOrCreate(store: ControllerStore) throws(ControllerError) -> OperationalIdentity {
        let fabric: ControllerFabric
        do {
            if let existing = try store.fabric() {
                fabric = existing
            } else {
                fabric = try store.createFabricIfAbsent(try newFabric())
            }
        } catch let error as StorageError {
            throw .storage(error)
        } catch let error as ControllerError {
            throw error
        } catch {
            throw .internalFailure("creating the fabric: \(error)")
        }
        return try OperationalIdentity(fabric: fabric)
    }

    init(fabric: ControllerFabric) throws(ControllerError) {
        do {
            let authority = try FabricAuthority(
                fabricID: fabric.fabricID, rootKey: try P256PrivateKey(rawRepresentation: fabric.rootCAPrivateKey),
                rootCertificate: try MatterCertificate(tlv: fabric.rootCertificate))
            let key = try P256PrivateKey()
            let noc = try authority.issueNOC(publicKey: key.publicKey, nodeID: fabric.controllerNodeID)
            let root = authority.rootCertificate
            let compressed = try CASEKeySchedule.compressedFabricID(
                rootPublicKey: root.publicKey, fabricID: fabric.fabricID)
            self.fabric = fabric
            self.authority = authority
            credentials = CASECredentials(
                fabricIndex: 1, fabricID: fabric.fabricID, nodeID: fabric.controllerNodeID, rcac: root.tlvEncoded,
                rootPublicKey: root.publicKey, icac: nil, noc: noc.tlvEncoded, operationalKey: key,
                ipkEpochKeys: [fabric.ipkEpochKey])
            compressedFabricID = compressed.reduce(0) { $0 << 8 | UInt64($1) }
        } catch {
            throw .storage(
                .invalidStoredValue("the stored fabric's root key or certificate is unusable: \(error)"))
        }
    }

    /// A fresh fabric: random fabric ID and root key, RCAC only, random IPK epoch key.
    static func newFabric() throws -> ControllerFabric {
        var fabricID: UInt64 = 0
        while fabricID == 0 { fabricID = try SecureRandom.value(UInt64.self) }
        let authority = try FabricAuthority.create(fabricID: FabricID(fabricID), rcacID: 1)
        return ControllerFabric(
            fabricID: FabricID(fabricID), rootCAPrivateKey: try authority.rootKey.rawRepresentation(),
            rootCertificate: authority.rootCertificate.tlvEncoded, ipkEpochKey: try SecureRandom.bytes(count: 16),
            controllerNodeID: controllerNodeID, nextNodeID: NodeID(1), vendorID: adminVendorID)
    }
}
