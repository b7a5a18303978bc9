import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTransport

@testable import MatterDevice

/// What a virtual device holds, read on its queue (not over the network): the device side of a
/// controller test.
struct DeviceState: Sendable {
    struct Fabric: Sendable {
        var index: UInt8
        /// False while AddNOC's fabric waits for CommissioningComplete.
        var committed: Bool
        /// The CASE subjects the fabric's ACL grants Administer.
        var adminSubjects: [UInt64]
    }

    var fabrics: [Fabric]
    var failSafeArmed: Bool
    var commissionable: Bool
    /// The discriminator of an enhanced commissioning window, when one is open.
    var enhancedWindowDiscriminator: UInt16?
    var onOff: Bool?
    var onTime: UInt64?
    var level: UInt64?

    var committedFabrics: [Fabric] { fabrics.filter(\.committed) }
}

extension VirtualDevice {
    /// The device's commissioning and endpoint-1 state now.
    func state() async -> DeviceState {
        let root = self.root
        var state = await node.run { node in
            let root = root.value(in: node)
            let table = root.fabrics
            let fabrics = table.all.map { fabric in
                DeviceState.Fabric(
                    index: fabric.index, committed: fabric.index != table.pending,
                    adminSubjects: table.accessControl.entries(fabric: fabric.index)
                        .filter { $0.privilege == .administer && $0.authMode == .case }.flatMap(\.subjects))
            }
            let window: UInt16? =
                if case .enhanced(_, let discriminator, _, _) = root.windows.window { discriminator } else { nil }
            return DeviceState(
                fabrics: fabrics, failSafeArmed: root.failSafe.isArmed, commissionable: root.windows.isOpen,
                enhancedWindowDiscriminator: window)
        }
        if case .bool(let on)? = await deviceValue(1, .onOff, .OnOff.onOff) { state.onOff = on }
        if case .unsigned(let time)? = await deviceValue(1, .onOff, .OnOff.onTime) { state.onTime = time }
        if case .unsigned(let level)? = await deviceValue(1, .levelControl, .LevelControl.currentLevel) {
            state.level = level
        }
        return state
    }
}

extension VirtualDevice {
    /// Forgets every secure session, as a device does when it reboots without losing its fabrics.
    func dropSecureSessions() async {
        await node.run { node in
            for session in node.secureSessionList {
                node.removeSecureSession(.secure(localSessionID: session.localSessionID))
            }
        }
    }
}
