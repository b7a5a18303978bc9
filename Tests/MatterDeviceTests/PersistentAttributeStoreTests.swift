import Foundation
import MatterStorage
import MatterTestSupport
import Testing

@testable import MatterDevice

/// The device's attribute store writes attribute values behind (off the node's queue, coalesced)
/// and keeps durable saves and flushes in order with them, on a real SQLite file.
@Suite("Attribute values written behind")
struct PersistentAttributeStoreTests {
    static func open(_ workspace: TemporaryDirectory) throws -> PersistentAttributeStore {
        let store = try KeyValueStore(path: workspace.path + "/device.sqlite")
        return PersistentAttributeStore(DevicePersistence(store: store, namespace: "device"))
    }

    @Test("a value saved soon is read back at once and is in the file after flush")
    func saveSoonThenFlush() throws {
        let workspace = try TemporaryDirectory()
        let store = try Self.open(workspace)
        try store.saveSoon("1/0006/0000", [1])
        #expect(try store.load("1/0006/0000") == [1])
        store.flush()
        #expect(try Self.open(workspace).load("1/0006/0000") == [1])
    }

    @Test("1,000 changes of 10 keys: the last value of each is stored, removals included")
    func coalescedChangesKeepTheLastValue() throws {
        let workspace = try TemporaryDirectory()
        let store = try Self.open(workspace)
        for round in 0..<100 {
            for key in 0..<10 { try store.saveSoon("1/0008/\(key)", [UInt8(round), UInt8(key)]) }
        }
        try store.saveSoon("1/0008/9", nil)
        store.flush()
        let reopened = try Self.open(workspace)
        for key in 0..<9 { #expect(try reopened.load("1/0008/\(key)") == [99, UInt8(key)]) }
        #expect(try reopened.load("1/0008/9") == nil)
    }

    @Test("a durable save after a pending one of the same key wins; one before it loses")
    func durableSavesStayInOrder() throws {
        let workspace = try TemporaryDirectory()
        let store = try Self.open(workspace)
        try store.saveSoon("a", [1])
        try store.save("a", [2])
        try store.save("b", [1])
        try store.saveSoon("b", [2])
        store.flush()
        let reopened = try Self.open(workspace)
        #expect(try reopened.load("a") == [2])
        #expect(try reopened.load("b") == [2])
    }

    @Test("a light's OnOff set through the control plane is stored when the device stops, and read at the next start")
    func stopWritesPendingValues() async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace, type: "on-off-light")
        let set = await device.control(#"{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}"#)
        #expect(set.contains(#""ok":true"#))
        await device.stop()
        let restarted = try await DeviceCommissioningTests.device(workspace, type: "on-off-light")
        let get = await restarted.control(#"{"op":"get","endpoint":1,"cluster":"OnOff","attribute":"OnOff"}"#)
        #expect(get.contains(#""value":true"#))
        await restarted.stop()
    }
}

/// A window the device opens itself (the control plane's `open-window`) names no administrator.
@Suite("Control-plane commissioning window")
struct ControlPlaneWindowTests {
    @Test("an enhanced window opened through the control plane reports AdminFabricIndex and AdminVendorId null")
    func deviceOpenedWindowHasNoAdministrator() async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace, type: "on-off-light")
        // A new device's basic window is open; an enhanced one replaces it once it is closed.
        #expect(await device.control(#"{"op":"close-window"}"#).contains(#""ok":true"#))
        let opened = await device.control(#"{"op":"open-window","mode":"enhanced","timeout":180}"#)
        #expect(opened.contains(#""ok":true"#))
        for attribute in ["WindowStatus", "AdminFabricIndex", "AdminVendorId"] {
            let answer = await device.control(
                #"{"op":"get","endpoint":0,"cluster":"AdministratorCommissioning","attribute":"\#(attribute)"}"#)
            if attribute == "WindowStatus" {
                #expect(answer.contains(#""value":1"#), "\(answer)")
            } else {
                #expect(answer.contains(#""value":null"#), "\(attribute): \(answer)")
            }
        }
        await device.stop()
    }
}
