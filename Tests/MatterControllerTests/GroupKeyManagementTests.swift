import Dispatch
import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterStorage
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@testable import MatterDevice

/// GroupKeyManagement on a real virtual device over loopback: key sets (the IPK as key set 0), the
/// GroupKeyMap, their limits and KeySetWrite's validation (the SDK's group-key-mgmt-server rules), and
/// persistence across a restart.
@Suite("Group key management")
struct GroupKeyManagementTests {
    typealias C = CommandID.GroupKeyManagement
    typealias A = AttributeID.GroupKeyManagement
    let directory: TemporaryDirectory
    let node = NodeID(41)

    init() throws { directory = try TemporaryDirectory() }

    func commissioned() async throws -> (VirtualDevice, Controller) {
        let device = try await VirtualDevices.start("on-off-light", in: directory, name: "gkm")
        let endpoint = try UDPEndpoint(port: 0, queue: DispatchQueue(label: "test.gkm"))
        let configuration = ControllerConfiguration(
            store: try ControllerStore(path: directory.storePath), transport: endpoint, discovery: .none,
            trustStore: try DefaultPAATrustStore.make())
        let controller = try await Controller.open(configuration)
        _ = try await controller.commission(device.request(nodeID: node))
        return (device, controller)
    }

    /// A GroupKeySetStruct with `epochs` (key, start time) and nulls for the rest.
    static func keySet(_ id: UInt16, policy: UInt8 = 0, _ epochs: [([UInt8]?, UInt64?)]) -> TLVElement {
        var members = [
            TLVElement(tag: .context(0), .unsigned(UInt64(id))),
            TLVElement(tag: .context(1), .unsigned(UInt64(policy))),
        ]
        for slot in 0..<3 {
            let epoch = slot < epochs.count ? epochs[slot] : (nil, nil)
            members.append(TLVElement(tag: .context(UInt8(2 + 2 * slot)), epoch.0.map { .bytes($0) } ?? .null))
            members.append(TLVElement(tag: .context(UInt8(3 + 2 * slot)), epoch.1.map { .unsigned($0) } ?? .null))
        }
        return TLVElement(tag: .context(0), .structure(members))
    }

    static let key = [UInt8](repeating: 0xA5, count: 16)

    func invoke(_ controller: Controller, _ command: CommandID, _ fields: [TLVElement]) async throws -> InvokeResult {
        try await controller.invoke(
            node, endpoint: .root, cluster: .groupKeyManagement, command: command, fields: fields)
    }

    /// The IM status a failing invoke named, as text.
    func failure(_ controller: Controller, _ command: CommandID, _ fields: [TLVElement]) async -> String {
        do {
            let result = try await invoke(controller, command, fields)
            return "succeeded: \(result)"
        } catch {
            return "\(error)"
        }
    }

    func allIndices(_ controller: Controller) async throws -> [TLVValue] {
        let result = try await invoke(controller, C.keySetReadAllIndices, [])
        guard case .response(_, let fields) = result, case .array(let ids)? = TLVElement(fields)[context: 0]?.value
        else { return [] }
        return ids.map(\.value)
    }

    @Test("key sets: the IPK is set 0 and stays; writes validated; limits; the map; persisted")
    func keySets() async throws {
        var (device, controller) = try await commissioned()
        #expect(try await allIndices(controller) == [.unsigned(0)])
        // The IPK: TrustFirst, EpochStartTime0 = 0, keys never returned.
        let ipk = try await invoke(controller, C.keySetRead, [TLVElement(tag: .context(0), .unsigned(0))])
        guard case .response(let command, let fields) = ipk, command == C.keySetReadResponse,
            let set = TLVElement(fields)[context: 0]
        else {
            Issue.record("no KeySetReadResponse: \(ipk)")
            return
        }
        #expect(set[context: 3]?.value == .unsigned(0))
        #expect(set[context: 2]?.value == .null)
        #expect(
            await failure(controller, C.keySetRemove, [TLVElement(tag: .context(0), .unsigned(0))]).contains(
                "INVALID_COMMAND"))

        // Validation, in the SDK's order.
        let cases: [(TLVElement, String)] = [
            (Self.keySet(1, [(nil, 10)]), "INVALID_COMMAND"),
            (Self.keySet(1, [(Self.key, 0)]), "INVALID_COMMAND"),
            (Self.keySet(1, [(Array(Self.key.prefix(15)), 10)]), "CONSTRAINT_ERROR"),
            (Self.keySet(1, [(Self.key, 10), (Self.key, nil)]), "INVALID_COMMAND"),
            (Self.keySet(1, [(Self.key, 10), (Self.key, 10)]), "INVALID_COMMAND"),
            (Self.keySet(1, [(Self.key, 10), (nil, nil), (Self.key, 30)]), "INVALID_COMMAND"),
            (Self.keySet(1, policy: 1, [(Self.key, 10)]), "INVALID_COMMAND"),
            (Self.keySet(1, policy: 7, [(Self.key, 10)]), "CONSTRAINT_ERROR"),
            (Self.keySet(0, [(Self.key, 10)]), "INVALID_COMMAND"),
        ]
        for (fields, status) in cases {
            let text = await failure(controller, C.keySetWrite, [fields])
            #expect(text.contains(status), "\(fields): \(text)")
        }

        // Two more key sets fit (MaxGroupKeysPerFabric 3 counts the IPK), a third does not.
        let maximum = try await controller.readAttribute(
            node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.maxGroupKeysPerFabric)
        #expect(maximum == .value(.unsigned(3)))
        _ = try await invoke(controller, C.keySetWrite, [Self.keySet(0x0101, [(Self.key, 10), (Self.key, 20)])])
        _ = try await invoke(controller, C.keySetWrite, [Self.keySet(0x0102, [(Self.key, 10)])])
        #expect(
            await failure(controller, C.keySetWrite, [Self.keySet(0x0103, [(Self.key, 10)])]).contains(
                "RESOURCE_EXHAUSTED"))
        #expect(try await allIndices(controller) == [.unsigned(0), .unsigned(0x0101), .unsigned(0x0102)])
        let read = try await invoke(controller, C.keySetRead, [TLVElement(tag: .context(0), .unsigned(0x0101))])
        if case .response(_, let fields) = read, let set = TLVElement(fields)[context: 0] {
            #expect(set[context: 5]?.value == .unsigned(20))
            #expect(set[context: 4]?.value == .null)
            #expect(set[context: 7]?.value == .null)
        } else {
            Issue.record("no KeySetReadResponse: \(read)")
        }

        // The map: key set 0 cannot be mapped; a written map reads back with our fabric index.
        let mapping: (UInt64, UInt64) -> TLVValue = { group, set in
            .structure([
                TLVElement(tag: .context(1), .unsigned(group)), TLVElement(tag: .context(2), .unsigned(set)),
                TLVElement(tag: .context(0xFE), .unsigned(1)),
            ])
        }
        await #expect(throws: ControllerError.self) {
            try await controller.writeAttribute(
                node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.groupKeyMap,
                value: .array([TLVElement(mapping(0x0001, 0))]))
        }
        try await controller.writeAttribute(
            node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.groupKeyMap,
            value: .array([TLVElement(mapping(0x0001, 0x0101)), TLVElement(mapping(0x0002, 0x0102))]))
        let map = try await controller.readAttribute(
            node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.groupKeyMap)
        #expect(map == .value(.array([TLVElement(mapping(0x0001, 0x0101)), TLVElement(mapping(0x0002, 0x0102))])))
        let groups = try await controller.readAttribute(
            node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.maxGroupsPerFabric)
        guard case .value(.unsigned(let maxGroups)) = groups else {
            Issue.record("no MaxGroupsPerFabric: \(groups)")
            return
        }
        #expect(maxGroups >= 4)

        // Removing a key set removes its mappings.
        _ = try await invoke(controller, C.keySetRemove, [TLVElement(tag: .context(0), .unsigned(0x0102))])
        #expect(
            await failure(controller, C.keySetRemove, [TLVElement(tag: .context(0), .unsigned(0x0102))]).contains(
                "NOT_FOUND"))

        // Stored: a restarted device still has them.
        let port = device.port
        await device.stop()
        var configuration = device.configuration
        configuration.port = port
        device = try await VirtualDevice.start(configuration)
        #expect(try await allIndices(controller) == [.unsigned(0), .unsigned(0x0101)])
        let restored = try await controller.readAttribute(
            node, endpoint: .root, cluster: .groupKeyManagement, attribute: A.groupKeyMap)
        #expect(restored == .value(.array([TLVElement(mapping(0x0001, 0x0101))])))
        await controller.stop()
        await device.stop()
    }
}
