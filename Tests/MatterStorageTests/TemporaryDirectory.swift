import Foundation
import MatterCore
import Testing

@testable import MatterStorage

/// A fresh directory under the system's temporary directory, removed with everything in it when the
/// value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("matter-storage-tests")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let directory = base.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        path = directory.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}

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
