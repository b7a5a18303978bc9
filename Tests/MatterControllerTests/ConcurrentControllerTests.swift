import MatterController
import MatterCore
import MatterDevice
import MatterStorage
import MatterTestSupport
import Testing

@Suite("Several controllers on one state directory")
struct ConcurrentControllerTests {
    @Test("controllers started together share one fabric and commission their devices with distinct node IDs")
    func concurrentCommissioning() async throws {
        let bed = try TestBed()
        let count = 4
        var devices: [VirtualDevice] = []
        for _ in 0..<count { devices.append(try await bed.device()) }
        let controllers = try await withThrowingTaskGroup(of: Controller.self) { group in
            for _ in 0..<count { group.addTask { try await bed.controller() } }
            var opened: [Controller] = []
            for try await controller in group { opened.append(controller) }
            return opened
        }
        #expect(Set(controllers.map(\.fabricID)).count == 1)
        let pairs = Array(zip(controllers, devices))
        let results = try await withThrowingTaskGroup(of: CommissioningResult.self) { group in
            for (index, pair) in pairs.enumerated() {
                group.addTask {
                    var request = pair.1.request(nodeID: nil)
                    request.name = "lamp \(index)"
                    return try await pair.0.commission(request)
                }
            }
            var all: [CommissioningResult] = []
            for try await result in group { all.append(result) }
            return all
        }
        let ids = results.map(\.node.nodeID)
        #expect(Set(ids).count == count)
        let store = try ControllerStore(path: bed.directory.storePath)
        let stored = try store.nodes()
        #expect(stored.map(\.nodeID).sorted() == ids.sorted())
        #expect(Set(stored.compactMap(\.name)).count == count)
        #expect(try store.fabric()?.fabricID == controllers[0].fabricID)

        // Each controller toggles every node concurrently, through sessions it opens itself.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for controller in controllers {
                for id in ids { group.addTask { try await controller.toggle(id) } }
            }
            try await group.waitForAll()
        }
        for device in devices {
            // Toggled an even number of times.
            #expect(await device.state().onOff == (count % 2 == 1))
        }
        for controller in controllers { await controller.stop() }
        for device in devices { await device.stop() }
    }
}
