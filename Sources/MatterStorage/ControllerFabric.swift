package import MatterCore

/// The controller's fabric: its root of trust, its identity on the fabric, and the counter that
/// hands out node IDs. Stored as the single row of the `fabric` table.
///
/// `description` and `dump` leave out the two secrets (the root CA private key and the IPK).
package struct ControllerFabric: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The fabric ID (the same in every NOC the root issues).
    package var fabricID: FabricID
    /// The root CA's private key, in the form the controller chooses (e.g. the raw 32-byte scalar).
    package var rootCAPrivateKey: [UInt8]
    /// The root certificate (RCAC), in the form the controller chooses (Matter TLV or DER).
    package var rootCertificate: [UInt8]
    /// The IPK epoch key (16 bytes) the commissioner installs with AddNOC.
    package var ipkEpochKey: [UInt8]
    /// The controller's own operational node ID.
    package var controllerNodeID: NodeID
    /// The next node ID `ControllerStore.allocateNodeID()` considers.
    package var nextNodeID: NodeID
    /// The admin vendor ID (AddNOC's AdminVendorId).
    package var vendorID: VendorID
    /// When the fabric was created, in seconds since 1970-01-01 UTC.
    package var createdAt: Int64

    package init(
        fabricID: FabricID, rootCAPrivateKey: [UInt8], rootCertificate: [UInt8], ipkEpochKey: [UInt8],
        controllerNodeID: NodeID, nextNodeID: NodeID, vendorID: VendorID, createdAt: Int64 = currentUnixTime()
    ) {
        self.fabricID = fabricID
        self.rootCAPrivateKey = rootCAPrivateKey
        self.rootCertificate = rootCertificate
        self.ipkEpochKey = ipkEpochKey
        self.controllerNodeID = controllerNodeID
        self.nextNodeID = nextNodeID
        self.vendorID = vendorID
        self.createdAt = createdAt
    }

    package var description: String {
        "ControllerFabric(fabricID: \(fabricID), controllerNodeID: \(controllerNodeID), nextNodeID: \(nextNodeID), "
            + "vendorID: \(vendorID), rootCertificate: \(rootCertificate.count) bytes, createdAt: \(createdAt), "
            + "rootCAPrivateKey and ipkEpochKey: <redacted>)"
    }

    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "fabricID": fabricID, "controllerNodeID": controllerNodeID, "nextNodeID": nextNodeID,
                "vendorID": vendorID, "rootCertificate": rootCertificate, "createdAt": createdAt,
                "rootCAPrivateKey": "<redacted>", "ipkEpochKey": "<redacted>",
            ])
    }
}
