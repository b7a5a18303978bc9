import MatterCore
import MatterTestSupport
import Testing

@testable import MatterStorage

@Suite("ControllerStore")
struct ControllerStoreTests {
    private func store(nextNodeID: UInt64 = 1) throws -> ControllerStore {
        let store = try ControllerStore(database: .inMemory())
        try store.createFabric(sampleFabric(nextNodeID: nextNodeID))
        return store
    }

    private func light(_ id: UInt64, name: String? = nil, room: String? = nil) -> ControllerNode {
        ControllerNode(
            nodeID: NodeID(id), name: name, room: room, vendorID: VendorID(0xFFF1), productID: ProductID(0x8001),
            deviceTypes: [
                NodeDeviceType(endpoint: .root, deviceType: DeviceTypeID(0x0016), revision: 2),
                NodeDeviceType(endpoint: EndpointID(1), deviceType: DeviceTypeID(0x0101), revision: 3),
            ],
            lastAddress: "[::1]:5540", attestationSkipped: false, commissionedAt: 1_700_000_100)
    }

    // MARK: Fabric

    @Test("the fabric round-trips, exists once, and its secrets stay out of descriptions")
    func fabric() throws {
        let store = try ControllerStore(database: .inMemory())
        #expect(try store.fabric() == nil)
        let fabric = sampleFabric(fabricID: 0xFEDC_BA98_7654_3210)
        try store.createFabric(fabric)
        #expect(try store.fabric() == fabric)
        #expect(throws: StorageError.fabricAlreadyExists) { try store.createFabric(sampleFabric(fabricID: 2)) }

        let text = String(describing: fabric) + String(reflecting: fabric)
        var dumped = ""
        dump(fabric, to: &dumped)
        for shown in [text, dumped] {
            #expect(!shown.contains("165"), "the root key bytes (0xA5 = 165) leaked")
            #expect(shown.contains("redacted"))
        }
    }

    @Test("createFabricIfAbsent keeps the first fabric")
    func fabricIfAbsent() throws {
        let store = try ControllerStore(database: .inMemory())
        let first = try store.createFabricIfAbsent(sampleFabric(fabricID: 1, key: 1))
        let second = try store.createFabricIfAbsent(sampleFabric(fabricID: 2, key: 2))
        #expect(first.fabricID == FabricID(1))
        #expect(second == first)
    }

    @Test("a fabric whose controller node ID is not operational is refused")
    func invalidFabric() throws {
        let store = try ControllerStore(database: .inMemory())
        var fabric = sampleFabric()
        fabric.controllerNodeID = NodeID(0xFFFF_FFFF_0000_0001)
        #expect(throws: StorageError.self) { try store.createFabric(fabric) }
        #expect(try store.fabric() == nil)
    }

    // MARK: Node IDs

    @Test("node IDs are handed out in order, skipping the controller's and stored nodes' IDs")
    func allocation() throws {
        #expect(throws: StorageError.noFabric) { try ControllerStore(database: .inMemory()).allocateNodeID() }
        let store = try store(nextNodeID: 112_232)
        try store.addNode(light(112_235))
        let ids = try (0..<3).map { _ in try store.allocateNodeID().rawValue }
        #expect(ids == [112_232, 112_234, 112_236])
        #expect(try store.fabric()?.nextNodeID == NodeID(112_237))
    }

    @Test("a counter at 0 starts at 1; the end of the operational range is reported")
    func allocationLimits() throws {
        #expect(try store(nextNodeID: 0).allocateNodeID() == NodeID(1))
        let last: UInt64 = 0xFFFF_FFEF_FFFF_FFFF
        let store = try store(nextNodeID: last)
        #expect(try store.allocateNodeID() == NodeID(last))
        #expect(throws: StorageError.nodeIDsExhausted) { try store.allocateNodeID() }
    }

    // MARK: Nodes

    @Test("nodes round-trip, 64-bit IDs included, and are listed by node ID")
    func nodes() throws {
        let store = try store()
        var big = light(0xFFFF_FFEF_0000_0001, name: "Desk lamp", room: "Office")
        big.attestationSkipped = true
        big.lastAddress = nil
        let small = light(5)
        try store.addNode(big)
        try store.addNode(small)
        #expect(try store.node(big.nodeID) == big)
        #expect(try store.node(small.nodeID) == small)
        #expect(try store.node(NodeID(6)) == nil)
        #expect(try store.nodes() == [small, big])
        #expect(try store.node(named: "desk LAMP") == big)
        #expect(try store.node(named: "Desk") == nil)

        var updated = small
        updated.name = "Porch"
        updated.deviceTypes = []
        updated.vendorID = VendorID(0xFFF2)
        try store.updateNode(updated)
        #expect(try store.node(small.nodeID) == updated)
    }

    @Test("node errors: duplicate ID, unknown node, name taken, bad arguments")
    func nodeErrors() throws {
        let store = try store()
        try store.addNode(light(1, name: "Lamp"))
        try store.addNode(light(2))
        #expect(throws: StorageError.nodeAlreadyExists(NodeID(1))) { try store.addNode(light(1)) }
        #expect(throws: StorageError.nameAlreadyUsed("LAMP")) { try store.addNode(light(3, name: "LAMP")) }
        #expect(throws: StorageError.noSuchNode(NodeID(9))) { try store.updateNode(light(9)) }
        #expect(throws: StorageError.noSuchNode(NodeID(9))) { try store.removeNode(NodeID(9)) }
        #expect(throws: StorageError.noSuchNode(NodeID(9))) { try store.rename(NodeID(9), to: "x") }
        #expect(throws: StorageError.noSuchNode(NodeID(9))) { try store.setRoom(NodeID(9), to: "x") }
        #expect(throws: StorageError.noSuchNode(NodeID(9))) { try store.setLastAddress(NodeID(9), to: "x") }
        #expect(throws: StorageError.nameAlreadyUsed("lamp")) { try store.rename(NodeID(2), to: "lamp") }
        #expect(throws: StorageError.nameAlreadyUsed("lamp")) { try store.updateNode(light(2, name: "lamp")) }
        #expect(throws: StorageError.self) { try store.addNode(light(0)) }
        #expect(throws: StorageError.self) { try store.addNode(light(3, name: "  ")) }
        #expect(throws: StorageError.self) { try store.rename(NodeID(2), to: "") }
        #expect(throws: StorageError.self) { try store.setRoom(NodeID(2), to: "") }
        #expect(try store.nodes().map(\.nodeID) == [NodeID(1), NodeID(2)])
        // Renaming a node to its own name in another case is allowed.
        try store.rename(NodeID(1), to: "LAMP")
        #expect(try store.node(NodeID(1))?.name == "LAMP")
    }

    @Test("rename, rooms, last address, removal")
    func editing() throws {
        let store = try store()
        for id in 1...4 { try store.addNode(light(UInt64(id))) }
        try store.rename(NodeID(1), to: "Ceiling")
        try store.rename(NodeID(1), to: "Ceiling light")
        #expect(try store.node(named: "Ceiling") == nil)
        #expect(try store.node(named: "ceiling light")?.nodeID == NodeID(1))
        try store.rename(NodeID(1), to: nil)
        #expect(try store.node(NodeID(1))?.name == nil)

        try store.setRoom(NodeID(1), to: "Kitchen")
        try store.setRoom(NodeID(2), to: "kitchen")
        try store.setRoom(NodeID(3), to: "Bedroom")
        #expect(try store.rooms().map { $0.lowercased() } == ["bedroom", "kitchen"])
        #expect(try store.nodes(inRoom: "KITCHEN").map(\.nodeID) == [NodeID(1), NodeID(2)])
        try store.setRoom(NodeID(3), to: nil)
        #expect(try store.rooms().map { $0.lowercased() } == ["kitchen"])

        try store.setLastAddress(NodeID(4), to: "[fe80::1%eth0]:5540")
        #expect(try store.node(NodeID(4))?.lastAddress == "[fe80::1%eth0]:5540")

        try store.removeNode(NodeID(2))
        #expect(try store.node(NodeID(2)) == nil)
        #expect(try store.nodes().map(\.nodeID) == [NodeID(1), NodeID(3), NodeID(4)])
    }

    @Test("a damaged device-type list reads as invalidStoredValue")
    func damagedDeviceTypes() throws {
        let store = try store()
        try store.addNode(light(1))
        for text in [
            "not json", "[{\"endpoint\":1}]", "[{\"endpoint\":70000,\"deviceType\":1,\"revision\":1}]", "[", "",
        ] {
            try store.database.withConnection { connection throws(StorageError) in
                try connection.execute("UPDATE nodes SET device_types = ?1", [.text(text)])
            }
            let error = #expect(throws: StorageError.self) { try store.node(NodeID(1)) }
            guard case .invalidStoredValue = error else {
                Issue.record("\(text): unexpected \(String(describing: error))")
                continue
            }
        }
    }

    @Test("device-type lists are JSON readable in the sqlite3 shell, parsed with any spacing and key order")
    func deviceTypeJSON() throws {
        let list = [
            NodeDeviceType(endpoint: .root, deviceType: DeviceTypeID(0x16), revision: 2),
            NodeDeviceType(endpoint: EndpointID(0xFFFF), deviceType: DeviceTypeID(0xFFFF_FFFF), revision: 0xFFFF),
        ]
        let text = NodeDeviceTypeList.encode(list)
        #expect(
            text == #"[{"endpoint":0,"deviceType":22,"revision":2},"#
                + #"{"endpoint":65535,"deviceType":4294967295,"revision":65535}]"#)
        #expect(try NodeDeviceTypeList.decode(text) == list)
        #expect(try NodeDeviceTypeList.decode(" [ ] ") == [])
        let spaced = "[ {\n \"revision\" : 2 , \"deviceType\":22,\t\"endpoint\":0 } ]"
        #expect(try NodeDeviceTypeList.decode(spaced) == [list[0]])
        #expect(throws: StorageError.self) {
            try NodeDeviceTypeList.decode(#"[{"endpoint":0,"endpoint":0,"deviceType":1}]"#)
        }
        #expect(throws: StorageError.self) { try NodeDeviceTypeList.decode("[] x") }
        #expect(throws: StorageError.self) { try NodeDeviceTypeList.decode(#"[{"endpoint":99999999999999999999,"#) }
    }

    // MARK: Groups

    @Test("groups: create, add, remove, show, list, delete")
    func groups() throws {
        let store = try store()
        for id in 1...3 { try store.addNode(light(UInt64(id))) }
        try store.createGroup("Downstairs")
        try store.createGroup("all")
        try store.addToGroup("downstairs", nodeID: NodeID(2), endpoint: EndpointID(1))
        try store.addToGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(2))
        try store.addToGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(1))
        try store.addToGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(1))  // already there
        try store.addToGroup("all", nodeID: NodeID(3), endpoint: EndpointID(1))

        let member = { (node: UInt64, endpoint: UInt16) in
            ControllerGroup.Member(nodeID: NodeID(node), endpoint: EndpointID(endpoint))
        }
        let downstairs = ControllerGroup(name: "Downstairs", members: [member(1, 1), member(1, 2), member(2, 1)])
        #expect(try store.group(named: "DOWNSTAIRS") == downstairs)
        #expect(try store.group(named: "upstairs") == nil)
        #expect(try store.groups() == [ControllerGroup(name: "all", members: [member(3, 1)]), downstairs])
        #expect(try store.groupNames(containing: NodeID(1)) == ["Downstairs"])

        #expect(try store.removeFromGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(2)))
        #expect(try !store.removeFromGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(2)))
        #expect(try store.group(named: "Downstairs")?.members == [member(1, 1), member(2, 1)])
        try store.addToGroup("Downstairs", nodeID: NodeID(1), endpoint: EndpointID(3))
        #expect(try store.removeFromGroup("Downstairs", nodeID: NodeID(1)))  // every endpoint of node 1
        #expect(try store.group(named: "Downstairs")?.members == [member(2, 1)])

        try store.deleteGroup("all")
        #expect(try store.groups().map(\.name) == ["Downstairs"])
        #expect(try store.node(NodeID(3)) != nil)  // the node stays
    }

    @Test("removing a node removes its memberships (foreign-key cascade)")
    func cascade() throws {
        let store = try store()
        try store.addNode(light(1))
        try store.addNode(light(2))
        try store.createGroup("g")
        try store.addToGroup("g", nodeID: NodeID(1), endpoint: EndpointID(1))
        try store.addToGroup("g", nodeID: NodeID(2), endpoint: EndpointID(1))
        try store.removeNode(NodeID(1))
        #expect(try store.group(named: "g")?.members.map(\.nodeID) == [NodeID(2)])
        try store.deleteGroup("g")
        let orphans = try store.database.withConnection { connection throws(StorageError) in
            try connection.query("SELECT count(*) FROM group_members") { row throws(StorageError) in try row.int64(0) }
        }
        #expect(orphans == [0])
    }

    @Test("group errors; node and group names share one name space")
    func groupErrors() throws {
        let store = try store()
        try store.addNode(light(1, name: "Kitchen lamp"))
        try store.createGroup("Lights")
        #expect(throws: StorageError.nameAlreadyUsed("lights")) { try store.createGroup("lights") }
        #expect(throws: StorageError.nameAlreadyUsed("kitchen LAMP")) { try store.createGroup("kitchen LAMP") }
        #expect(throws: StorageError.nameAlreadyUsed("LIGHTS")) { try store.rename(NodeID(1), to: "LIGHTS") }
        #expect(throws: StorageError.nameAlreadyUsed("lights")) { try store.addNode(light(2, name: "lights")) }
        #expect(throws: StorageError.self) { try store.createGroup(" ") }
        #expect(throws: StorageError.noSuchGroup("Nope")) {
            try store.addToGroup("Nope", nodeID: NodeID(1), endpoint: EndpointID(1))
        }
        #expect(throws: StorageError.noSuchNode(NodeID(7))) {
            try store.addToGroup("Lights", nodeID: NodeID(7), endpoint: EndpointID(1))
        }
        #expect(throws: StorageError.noSuchGroup("Nope")) { try store.removeFromGroup("Nope", nodeID: NodeID(1)) }
        #expect(throws: StorageError.noSuchGroup("Nope")) { try store.deleteGroup("Nope") }
        #expect(try store.group(named: "Lights")?.members == [])
    }

    @Test("errors print a message a user can act on")
    func messages() {
        #expect(StorageError.noSuchNode(NodeID(0x2A)).description == "no node 0x000000000000002A (0d42) in the store")
        #expect(StorageError.nameAlreadyUsed("Lamp").description.contains("\"Lamp\" is already used"))
        #expect(StorageError.noSuchGroup("g").description == "no group named \"g\"")
        #expect(StorageError.noFabric.description.contains("no fabric"))
    }
}
