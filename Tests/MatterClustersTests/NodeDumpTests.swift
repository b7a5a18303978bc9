import Foundation
import MatterClusters
import MatterCore
import MatterTLV
import Testing

/// A small on/off light as Home Assistant's Matter servers record a node: endpoint 0 with the Descriptor and
/// BasicInformation, endpoint 1 with OnOff and a vendor's cluster (0xFFF1FC01, one attribute of each kind).
let recordedLight = """
    {
      "node_id": 7,
      "date_commissioned": "2026-01-01T00:00:00",
      "available": true,
      "attributes": {
        "0/29/0": [{"0": 22, "1": 3}],
        "0/29/1": [29, 40],
        "0/29/2": [],
        "0/29/3": [1],
        "0/40/1": "Acme",
        "0/40/2": 4660,
        "0/40/4": 22136,
        "0/40/18": "dGVzdA==",
        "0/40/65532": 0,
        "0/40/65533": 4,
        "1/29/0": [{"0": 256, "1": 3}],
        "1/29/1": [6, 29, 4294048769],
        "1/29/2": [],
        "1/29/3": [],
        "1/6/0": true,
        "1/6/16385": 0,
        "1/6/16387": null,
        "1/6/65528": [],
        "1/6/65529": [0, 1, 2],
        "1/6/65531": [0, 16385, 16387, 65528, 65529, 65531, 65532, 65533],
        "1/6/65532": 1,
        "1/6/65533": 6,
        "1/4294048769/0": "AQID",
        "1/4294048769/1": -5,
        "1/4294048769/2": {"0": 1, "3": "x"},
        "1/4294048769/65532": 0,
        "1/4294048769/65533": 1
      }
    }
    """

@Suite("Node dumps: reading and writing")
struct NodeDumpTests {
    @Test("a Home Assistant node is read with the model's types; a vendor's values by their JSON kind")
    func readsHomeAssistantNode() throws {
        let dump = try NodeDump.read(json: recordedLight)
        #expect(dump.nodeID == 7)
        #expect(dump.warnings.isEmpty, "\(dump.warnings)")
        #expect(dump.endpoints == [EndpointID(0), EndpointID(1)])
        #expect(dump.value(EndpointID(1), .onOff, .OnOff.onOff) == .bool(true))
        #expect(dump.value(EndpointID(1), .onOff, .OnOff.startUpOnOff) == .null)
        // UniqueID is a character string, so "dGVzdA==" stays text; an octet string would be base64.
        #expect(dump.value(.root, .basicInformation, AttributeID(18)) == .utf8("dGVzdA=="))
        #expect(dump.identifiers(EndpointID(1), .descriptor, .Descriptor.serverList) == [6, 29, 0xFFF1_FC01])
        guard case .array(let types)? = dump.value(EndpointID(1), .descriptor, .Descriptor.deviceTypeList) else {
            Issue.record("DeviceTypeList is not a list")
            return
        }
        #expect(types.first?[context: 0]?.uint == 256 && types.first?[context: 1]?.uint == 3)
        let vendor = ClusterID(0xFFF1_FC01)
        #expect(dump.value(EndpointID(1), vendor, AttributeID(0)) == .utf8("AQID"))
        #expect(dump.value(EndpointID(1), vendor, AttributeID(1)) == .signed(-5))
        #expect(
            dump.value(EndpointID(1), vendor, AttributeID(2))
                == .structure([TLVElement(tag: .context(0), .unsigned(1)), TLVElement(tag: .context(3), .utf8("x"))]))
    }

    @Test("the diagnostics download, a list of one node and a server's nodes read as the node itself")
    func readsWrappers() throws {
        let node = try NodeDump.read(json: recordedLight)
        #expect(try NodeDump.read(json: #"{"data": {"node": \#(recordedLight)}}"#) == node)
        #expect(try NodeDump.read(json: "[\(recordedLight)]") == node)
        #expect(try NodeDump.read(json: #"{"nodes": [\#(recordedLight)]}"#) == node)
    }

    @Test("native and Home Assistant files read back equal to what was written")
    func roundTrips() throws {
        let dump = try NodeDump.read(json: recordedLight)
        let native = try NodeDump.read(json: dump.json(.native, recordedAt: "2026-12-06T00:00:00Z"))
        #expect(native == dump)
        let ha = try NodeDump.read(json: dump.json(.ha, recordedAt: "2026-12-06T00:00:00Z"))
        #expect(ha == dump)
        // The native format keeps what the other loses: a vendor's octet string stays bytes.
        var bytes = dump
        bytes.attributes[NodeDump.Path(EndpointID(1), ClusterID(0xFFF1_FC01), AttributeID(0))] = .bytes([1, 2, 3])
        #expect(try NodeDump.read(json: bytes.json(.native, recordedAt: "x")) == bytes)
        #expect(try NodeDump.read(json: bytes.json(.ha, recordedAt: "x")) != bytes)
    }

    @Test("a value that does not fit its attribute's type is kept as recorded, with a warning naming it")
    func misfitIsWarned() throws {
        let text = recordedLight.replacingOccurrences(of: #""1/6/0": true"#, with: #""1/6/0": "on""#)
        let dump = try NodeDump.read(json: text)
        #expect(dump.value(EndpointID(1), .onOff, .OnOff.onOff) == .utf8("on"))
        #expect(dump.warnings.count == 1)
        #expect(dump.warnings.first?.hasPrefix("1/6/0:") == true, "\(dump.warnings)")
    }

    @Test(
        "bad files are refused with where and why",
        arguments: [
            ("{\"attributes\": ", "the file", "not JSON"),
            ("{\"node_id\": 1}", "the file", "no \"attributes\""),
            ("{\"attributes\": []}", "attributes", "an object keyed"),
            ("{\"attributes\": {\"1/6\": true}}", "attributes[\"1/6\"]", "not an \"endpoint/cluster/attribute\""),
            ("{\"attributes\": {\"70000/6/0\": true}}", "attributes[\"70000/6/0\"]", "not an"),
            ("[{\"attributes\": {}}, {\"attributes\": {}}]", "the file", "holds 2 nodes"),
            ("{\"format\": \"other\", \"attributes\": {}}", "format", "unknown format"),
            (
                "{\"format\": \"matter-emu-node-dump\", \"attributes\": {\"1/6/0\": {\"tlv\": \"zz\"}}}",
                "attributes[\"1/6/0\"].tlv", "not hexadecimal"
            ),
            (
                "{\"format\": \"matter-emu-node-dump\", \"attributes\": {\"1/6/0\": {\"tlv\": \"15\"}}}",
                "attributes[\"1/6/0\"].tlv", "not one TLV element"
            ),
            ("{\"format\": \"matter-emu-node-dump\", \"version\": 2, \"attributes\": {}}", "version", "not known"),
        ])
    func refusesBadFiles(_ text: String, _ location: String, _ reason: String) {
        do {
            _ = try NodeDump.read(json: text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.location == location, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }
}
