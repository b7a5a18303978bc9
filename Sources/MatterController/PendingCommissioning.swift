import MatterCore
import MatterStorage
import MatterTLV

/// The record of a commissioning that reached AddNOC and has not stored its node yet, kept in the
/// controller's store (a key/value entry beside the tables, so no node row exists for it): written
/// just before AddNOC, removed once the node row is written or the device is known to have rolled
/// back. A record that outlives its process was interrupted by a crash; resuming it (see
/// `Controller.resumeInterruptedCommissionings()`) finishes the commissioning or forgets it.
///
/// Encoded as a TLV structure:
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | node ID | uint64 |
/// | 1 | vendor ID | uint16 |
/// | 2 | product ID | uint16 |
/// | 3 | address the device answered PASE on | UTF-8 |
/// | 4 | attestation skipped | bool |
/// | 5 | name | UTF-8, optional |
/// | 6 | room | UTF-8, optional |
struct PendingCommissioning: Sendable, Equatable {
    var nodeID: NodeID
    var vendorID: VendorID
    var productID: ProductID
    var address: String
    var attestationSkipped: Bool
    var name: String?
    var room: String?

    /// The key/value namespace of the records.
    static let namespace = "controller/pending-commissioning"

    static func key(_ nodeID: NodeID) -> String { Hex.encode(nodeID.rawValue.bigEndianBytes) }

    func encoded() -> [UInt8] {
        var members: [TLVElement] = [
            .field(0, .unsigned(nodeID.rawValue)), .field(1, .unsigned(UInt64(vendorID.rawValue))),
            .field(2, .unsigned(UInt64(productID.rawValue))), .field(3, .utf8(address)),
            .field(4, .bool(attestationSkipped)),
        ]
        if let name { members.append(.field(5, .utf8(name))) }
        if let room { members.append(.field(6, .utf8(room))) }
        return TLVElement(.structure(members)).encoded()
    }

    init(
        nodeID: NodeID, vendorID: VendorID, productID: ProductID, address: String, attestationSkipped: Bool,
        name: String?, room: String?
    ) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.address = address
        self.attestationSkipped = attestationSkipped
        self.name = name
        self.room = room
    }

    /// Decodes a record; nil for bytes that are not one (they are then dropped).
    init?(decoding bytes: [UInt8]) {
        guard let element = try? TLVElement.decode(bytes), let node = element[context: 0]?.uint,
            let vendor = element[context: 1]?.uint.flatMap(UInt16.init(exactly:)),
            let product = element[context: 2]?.uint.flatMap(UInt16.init(exactly:)),
            let address = element[context: 3]?.string, let skipped = element[context: 4]?.bool
        else { return nil }
        self.init(
            nodeID: NodeID(node), vendorID: VendorID(vendor), productID: ProductID(product), address: address,
            attestationSkipped: skipped, name: element[context: 5]?.string, room: element[context: 6]?.string)
    }

    /// The node row this record becomes once commissioning completed.
    func node(deviceTypes: [NodeDeviceType], address: String) -> ControllerNode {
        ControllerNode(
            nodeID: nodeID, name: name, room: room, vendorID: vendorID, productID: productID,
            deviceTypes: deviceTypes, lastAddress: address, attestationSkipped: attestationSkipped)
    }
}

/// The records in a controller store's file.
struct PendingCommissioningStore: Sendable {
    let store: KeyValueStore

    init(_ controllerStore: ControllerStore) throws(StorageError) {
        store = try KeyValueStore(database: controllerStore.database)
    }

    func save(_ record: PendingCommissioning) throws(StorageError) {
        try store.set(
            PendingCommissioning.key(record.nodeID), to: record.encoded(), namespace: PendingCommissioning.namespace)
    }

    /// The record of `nodeID`, if any.
    func record(_ nodeID: NodeID) throws(StorageError) -> PendingCommissioning? {
        try store.get(PendingCommissioning.key(nodeID), namespace: PendingCommissioning.namespace)
            .flatMap(PendingCommissioning.init(decoding:))
    }

    func remove(_ nodeID: NodeID) throws(StorageError) {
        try store.remove(PendingCommissioning.key(nodeID), namespace: PendingCommissioning.namespace)
    }

    /// Every record; unreadable ones are removed.
    func all() throws(StorageError) -> [PendingCommissioning] {
        var records: [PendingCommissioning] = []
        for key in try store.keys(namespace: PendingCommissioning.namespace) {
            guard let bytes = try store.get(key, namespace: PendingCommissioning.namespace) else { continue }
            if let record = PendingCommissioning(decoding: bytes) {
                records.append(record)
            } else {
                try store.remove(key, namespace: PendingCommissioning.namespace)
            }
        }
        return records.sorted { $0.nodeID < $1.nodeID }
    }
}

extension UInt64 {
    /// The eight bytes, most significant first (keys sort by node ID).
    var bigEndianBytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: self >> (56 - 8 * $0)) } }
}
