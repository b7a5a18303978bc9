import Foundation
import MatterCore
import MatterTestSupport
import Testing

@testable import MatterStorage

/// The permission bits of the file at `path`.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let mode = try #require(attributes[.posixPermissions] as? NSNumber)
    return mode.intValue & 0o777
}

/// A fabric for controller tests; the controller's own node ID is 112233 as chip-tool's.
func sampleFabric(fabricID: UInt64 = 1, nextNodeID: UInt64 = 1, key: UInt8 = 0xA5) -> ControllerFabric {
    ControllerFabric(
        fabricID: FabricID(fabricID), rootCAPrivateKey: [UInt8](repeating: key, count: 32),
        rootCertificate: [0x15, 0x30, 0x01, 0x08] + [UInt8](repeating: 0x42, count: 200),
        ipkEpochKey: Array(0x00...0x0F), controllerNodeID: NodeID(112_233),
        nextNodeID: NodeID(nextNodeID), vendorID: VendorID(0xFFF1), createdAt: 1_700_000_000)
}
