import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import Testing

/// A recorded node (an on/off light with a vendor's cluster) as a dump.
private func recordedLight() throws -> NodeDump {
    var attributes: [NodeDump.Path: TLVValue] = [:]
    func put(_ endpoint: UInt16, _ cluster: UInt32, _ attribute: UInt32, _ value: TLVValue) {
        attributes[NodeDump.Path(EndpointID(endpoint), ClusterID(cluster), AttributeID(attribute))] = value
    }
    func list(_ values: [UInt64]) -> TLVValue { .array(values.map { TLVElement(.unsigned($0)) }) }
    func deviceType(_ id: UInt64) -> TLVValue {
        .array([
            TLVElement(
                .structure([TLVElement(tag: .context(0), .unsigned(id)), TLVElement(tag: .context(1), .unsigned(3))]))
        ])
    }
    put(0, 29, 0, deviceType(0x16))
    put(0, 29, 1, list([29, 40]))
    put(0, 29, 2, list([]))
    put(0, 29, 3, list([1]))
    put(0, 40, 2, .unsigned(0x1234))
    put(0, 40, 4, .unsigned(0x5678))
    put(0, 40, 65532, .unsigned(0))
    put(0, 40, 65533, .unsigned(4))
    put(1, 29, 0, deviceType(0x100))
    put(1, 29, 1, list([6, 29, 0xFFF1_FC01]))
    put(1, 29, 2, list([]))
    put(1, 29, 3, list([]))
    put(1, 6, 0, .bool(false))
    put(1, 6, 65528, list([]))
    put(1, 6, 65529, list([0, 1, 2]))
    put(1, 6, 65531, list([0, 65528, 65529, 65531, 65532, 65533]))
    put(1, 6, 65532, .unsigned(0))
    put(1, 6, 65533, .unsigned(6))
    put(1, 0xFFF1_FC01, 0, .bytes([1, 2, 3]))
    put(1, 0xFFF1_FC01, 65529, list([0x10]))
    put(1, 0xFFF1_FC01, 65532, .unsigned(0))
    put(1, 0xFFF1_FC01, 65533, .unsigned(1))
    return NodeDump(attributes: attributes, nodeID: 7)
}

@Suite("Twins of recorded nodes: composition and checks")
struct NodeTwinTests {
    @Test("a recorded light makes endpoints with its device types, clusters, values and command lists")
    func composition() throws {
        let twin = try NodeTwin(try recordedLight())
        #expect(twin.vendorID == VendorID(0x1234) && twin.productID == ProductID(0x5678))
        #expect(twin.primaryDeviceType.id == DeviceTypeID(0x100))
        let endpoints = twin.makeEndpoints()
        #expect(endpoints.map(\.id) == [.root, EndpointID(1)])
        let light = try #require(endpoints.last)
        #expect(light.deviceTypes.map(\.id) == [DeviceTypeID(0x100)])
        #expect(
            light.clusters.map(\.id).sorted { $0.rawValue < $1.rawValue } == [
                .onOff, .descriptor, ClusterID(0xFFF1_FC01),
            ])
        let vendor = try #require(light.cluster(ClusterID(0xFFF1_FC01)))
        #expect(vendor.acceptedCommands.map(\.id) == [CommandID(0x10)])
        #expect(vendor.attributes.map(\.id).contains(AttributeID(0)))
    }

    @Test("the live clusters of endpoint 0 are not taken from the recording")
    func liveClustersLeftOut() throws {
        var dump = try recordedLight()
        dump.attributes[NodeDump.Path(.root, .accessControl, AttributeID(0))] = .array([])
        dump.attributes[NodeDump.Path(.root, .descriptor, .Descriptor.serverList)] = .array(
            [29, 31, 40].map { TLVElement(.unsigned($0)) })
        let root = try #require(try NodeTwin(dump).makeEndpoints().first)
        #expect(root.cluster(.accessControl) == nil)
        #expect(root.cluster(.basicInformation) != nil)
    }

    @Test(
        "impossible compositions are refused with the path and the reason",
        arguments: [
            ("0/29/3", "PartsList names endpoint 5"),
            ("1/29/1", "ServerList names cluster 768"),
            ("1/6", "cluster 6 is recorded but not in the ServerList"),
            ("0/40/2", "VendorID"),
            ("1/29/0", "no Descriptor DeviceTypeList"),
            ("1/6/65529", "not a list of unsigned integers"),
            ("1/6/65533", "not a 16-bit unsigned integer"),
            ("the dump", "no endpoint 0"),
        ])
    func refusesImpossible(_ location: String, _ reason: String) throws {
        var dump = try recordedLight()
        func set(_ path: String, _ value: TLVValue?) {
            if let key = NodeDump.Path(key: path) { dump.attributes[key] = value }
        }
        func list(_ values: [UInt64]) -> TLVValue { .array(values.map { TLVElement(.unsigned($0)) }) }
        switch reason {
        case "PartsList names endpoint 5": set("0/29/3", list([1, 5]))
        case "ServerList names cluster 768": set("1/29/1", list([6, 29, 768, 0xFFF1_FC01]))
        case "cluster 6 is recorded but not in the ServerList": set("1/29/1", list([29, 0xFFF1_FC01]))
        case "VendorID": set("0/40/2", .utf8("Acme"))
        case "no Descriptor DeviceTypeList": set("1/29/0", .array([]))
        case "not a list of unsigned integers": set("1/6/65529", .array([TLVElement(.utf8("on"))]))
        case "not a 16-bit unsigned integer": set("1/6/65533", .unsigned(70000))
        default: dump.attributes = dump.attributes.filter { $0.key.endpoint != .root }
        }
        do {
            _ = try NodeTwin(dump)
            Issue.record("accepted a dump with \(location): \(reason)")
        } catch {
            #expect(error.location == location, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test("an attribute listed but not recorded gets the model's default, with a warning")
    func listedButNotRecorded() throws {
        var dump = try recordedLight()
        dump.attributes[NodeDump.Path(EndpointID(1), .onOff, .attributeList)] = .array(
            [0, 0x4001, 65528, 65529, 65531, 65532, 65533].map { TLVElement(.unsigned($0)) })
        let twin = try NodeTwin(dump)
        #expect(twin.warnings.contains { $0.hasPrefix("1/6/16385: listed in AttributeList but not recorded") })
        let onOff = try #require(twin.makeEndpoints().last?.cluster(.onOff))
        #expect(onOff.attributes.map(\.id).contains(.OnOff.onTime))
    }
}
