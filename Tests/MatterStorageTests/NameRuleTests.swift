import MatterCore
import MatterTestSupport
import Testing

@testable import MatterStorage

/// Names of nodes and groups: never a number, never control characters, compared with full Unicode
/// case folding.
@Suite("Node and group names")
struct NameRuleTests {
    private func store() throws -> ControllerStore {
        let store = try ControllerStore(database: .inMemory())
        try store.createFabric(sampleFabric(nextNodeID: 1))
        return store
    }

    private func node(_ id: UInt64, name: String?) -> ControllerNode {
        ControllerNode(
            nodeID: NodeID(id), name: name, room: nil, vendorID: VendorID(0xFFF1), productID: ProductID(0x8001),
            deviceTypes: [], lastAddress: nil, attestationSkipped: false, commissionedAt: 1_700_000_100)
    }

    @Test("numbers (decimal or 0x hex) and control characters are refused", arguments: ["42", "0x1F", "0XAB", "007"])
    func numbers(name: String) throws {
        let store = try store()
        #expect(throws: StorageError.self) { try store.addNode(node(1, name: name)) }
        #expect(throws: StorageError.self) { try store.createGroup(name) }
        #expect(throws: StorageError.self) { try ControllerStore.validateNodeOrGroupName(name) }
        // Not numbers: these are fine.
        try ControllerStore.validateNodeOrGroupName("42a")
        try ControllerStore.validateNodeOrGroupName("0x")
    }

    @Test(
        "control characters, bidi overrides and zero-width characters are refused",
        arguments: [
            "a\u{1B}[31m", "tab\t", "new\nline", "c1\u{85}", "a\u{2028}b", "evil\u{202E}gpj", "zero\u{200B}width",
            "\u{FEFF}bom", "iso\u{2067}late",
        ])
    func controls(name: String) throws {
        let store = try store()
        let error = #expect(throws: StorageError.self) { try store.createGroup(name) }
        #expect(error?.description.contains("control characters") == true)
        try store.addNode(node(1, name: "lamp"))
        #expect(throws: StorageError.self) { try store.rename(NodeID(1), to: name) }
        #expect(throws: StorageError.self) { try store.setRoom(NodeID(1), to: name) }
    }

    @Test("names compare with full Unicode case folding, across nodes and groups")
    func folding() throws {
        let store = try store()
        try store.addNode(node(1, name: "Straße"))
        #expect(try store.node(named: "STRASSE")?.nodeID == NodeID(1))
        #expect(try store.node(named: "straẞe")?.nodeID == NodeID(1))
        #expect(throws: StorageError.nameAlreadyUsed("STRASSE")) { try store.createGroup("STRASSE") }
        try store.createGroup("ΟΔΟΣ")
        #expect(try store.group(named: "οδος")?.name == "ΟΔΟΣ")
        #expect(try store.group(named: "οδοσ")?.name == "ΟΔΟΣ")
        #expect(throws: StorageError.nameAlreadyUsed("οδος")) { try store.addNode(node(2, name: "οδος")) }
        try store.addNode(node(3, name: "Élan"))
        #expect(try store.node(named: "éLAN")?.nodeID == NodeID(3))
        // Composed and decomposed spellings are one name.
        #expect(try store.node(named: "E\u{301}lan")?.nodeID == NodeID(3))
        try store.addToGroup("οδος", nodeID: NodeID(1), endpoint: EndpointID(1))
        #expect(try store.group(named: "ΟΔΟΣ")?.members.count == 1)
        try store.deleteGroup("οδοσ")
        #expect(try store.groups().isEmpty)
        // Renaming a node to its own name in another case is fine.
        try store.rename(NodeID(1), to: "STRASSE")
    }
}
