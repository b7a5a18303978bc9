package import MatterCore
package import MatterCrypto

/// One fabric's operational identity as CASE needs it: the device's fabric table and the
/// controller's store both hand these over through `CASECredentialsProvider`.
package struct CASECredentials: Sendable {
    /// The local index of the fabric (1...254); 0 for a controller's single fabric is fine.
    package var fabricIndex: UInt8
    package var fabricID: FabricID
    /// This node's operational node ID on the fabric.
    package var nodeID: NodeID
    /// The fabric's root certificate (Matter TLV); peers' chains are validated against it.
    package var rcac: [UInt8]
    /// The root's public key (65 bytes), from the RCAC.
    package var rootPublicKey: [UInt8]
    /// This node's intermediate (Matter TLV), if its chain has one.
    package var icac: [UInt8]?
    /// This node's NOC (Matter TLV).
    package var noc: [UInt8]
    package var operationalKey: P256PrivateKey
    /// The fabric's IPK epoch keys (16 bytes each), oldest first.
    package var ipkEpochKeys: [[UInt8]]

    package init(
        fabricIndex: UInt8, fabricID: FabricID, nodeID: NodeID, rcac: [UInt8], rootPublicKey: [UInt8],
        icac: [UInt8]?, noc: [UInt8], operationalKey: P256PrivateKey, ipkEpochKeys: [[UInt8]]
    ) {
        self.fabricIndex = fabricIndex
        self.fabricID = fabricID
        self.nodeID = nodeID
        self.rcac = rcac
        self.rootPublicKey = rootPublicKey
        self.icac = icac
        self.noc = noc
        self.operationalKey = operationalKey
        self.ipkEpochKeys = ipkEpochKeys
    }

    /// The epoch key an initiator uses (spec 4.15.3.3): the second oldest when there are several.
    var initiatorEpochKey: [UInt8]? { ipkEpochKeys.count > 1 ? ipkEpochKeys[1] : ipkEpochKeys.first }

    func operationalIPK(epochKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        let compressed = try CASEKeySchedule.compressedFabricID(rootPublicKey: rootPublicKey, fabricID: fabricID)
        return try CASEKeySchedule.operationalIPK(epochKey: epochKey, compressedFabricID: compressed)
    }
}

/// Where a CASE responder finds the fabrics it may be reached on (committed and pending ones).
/// Called on the node's queue.
package protocol CASECredentialsProvider: AnyObject {
    func caseCredentials() -> [CASECredentials]
}
