import MatterController
import MatterCore
import MatterDiscovery
import MatterStorage
import Synchronization

/// What every object of one open ``Home`` shares: the controller, its store, the live state of each
/// device, and the commissioning session of the state directory.
final class HomeContext: Sendable {
    let controller: Controller
    let store: ControllerStore
    /// Home-only records (empty rooms, the structure's name) beside the controller's tables.
    let records: KeyValueStore
    let stateDirectory: String
    /// Where the device to commission is, when the configuration gives an address.
    let commissioningAddress: DirectAddress?
    /// True when the controller can browse DNS-SD for commissionable devices.
    let canDiscover: Bool
    /// True when that browsing goes through the system's Avahi daemon (checked before commissioning).
    let usesAvahi: Bool
    let retryLimit: Duration
    let maxInterval: UInt16
    let commissioning: CommissioningSession
    private let live = Mutex<[NodeID: LiveDevice]>([:])
    private let closed = Mutex(false)

    /// True once ``close()`` began.
    var isClosed: Bool { closed.withLock { $0 } }

    init(
        controller: Controller, records: KeyValueStore, stateDirectory: String, commissioningAddress: DirectAddress?,
        canDiscover: Bool, usesAvahi: Bool, retryLimit: Duration, maxInterval: UInt16
    ) {
        self.controller = controller
        self.store = controller.store
        self.records = records
        self.stateDirectory = stateDirectory
        self.commissioningAddress = commissioningAddress
        self.canDiscover = canDiscover
        self.usesAvahi = usesAvahi
        self.retryLimit = retryLimit
        self.maxInterval = maxInterval
        self.commissioning = CommissioningSession(lockPath: ControllerStateDirectory.storePath(in: stateDirectory))
    }

    /// The live state of `nodeID`, subscribing to it on first use.
    func liveDevice(_ nodeID: NodeID) -> LiveDevice {
        let (device, isNew) = live.withLock { devices -> (LiveDevice, Bool) in
            if let device = devices[nodeID] { return (device, false) }
            let device = LiveDevice(nodeID: nodeID)
            devices[nodeID] = device
            return (device, true)
        }
        if isNew, !closed.withLock({ $0 }) {
            device.start(controller: controller, maxInterval: maxInterval, retryLimit: retryLimit)
        }
        return device
    }

    /// Stops following `nodeID` (it was removed).
    func forget(_ nodeID: NodeID) async {
        let device = live.withLock { $0.removeValue(forKey: nodeID) }
        await device?.stop(controller: controller)
    }

    /// Ends every subscription and the controller.
    func close() async {
        guard
            !closed.withLock({ value in
                defer { value = true }
                return value
            })
        else { return }
        await commissioning.shutDown()
        let devices = live.withLock { devices in
            defer { devices = [:] }
            return Array(devices.values)
        }
        for device in devices { await device.stop(controller: controller) }
        await controller.stop()
    }

    // MARK: Store

    func nodes() throws(HomeError) -> [ControllerNode] {
        do { return try store.nodes() } catch { throw HomeError(error) }
    }

    func node(_ nodeID: NodeID) throws(HomeError) -> ControllerNode? {
        do { return try store.node(nodeID) } catch { throw HomeError(error) }
    }

    /// A device as the Home API shows it.
    func device(_ node: ControllerNode) -> HomeDevice {
        HomeDevice(node: node, live: liveDevice(node.nodeID), home: self)
    }

    static let recordsNamespace = "home"
    /// The rooms of the state directory.
    var rooms: RoomRegistry { RoomRegistry(store: store, records: records) }
}
