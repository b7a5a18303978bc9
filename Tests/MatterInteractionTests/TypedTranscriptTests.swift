import MatterClusters
import MatterCore
import MatterTLV
import MatterTestSupport
import Testing

/// The generated typed commands and attributes against what the SDK controller and device really sent
/// (the golden commissioning transcript): each command's fields and each attribute's value decode as the
/// generated type and encode again to the same bytes.
@Suite("Generated types on the SDK's bytes")
struct TypedTranscriptTests {
    /// (cluster, command, fields) of every command in the transcript's invokes, requests or responses.
    static func commands(responses: Bool) throws -> [(ClusterID, CommandID, TLVElement)] {
        var out: [(ClusterID, CommandID, TLVElement)] = []
        let name = responses ? "InvokeCommandResponse" : "InvokeCommandRequest"
        for message in transcriptMessages where message.name == name {
            let root = try TLVElement.decode(hex(message.payload))
            let items = try #require(root[context: responses ? 1 : 2]?.members)
            for item in items {
                guard let data = responses ? item[context: 0] : item else { continue }  // a status, not a command
                let path = try #require(data[context: 0])
                let cluster = ClusterID(UInt32(try #require(path[context: 1]?.uint)))
                let command = CommandID(UInt32(try #require(path[context: 2]?.uint)))
                out.append((cluster, command, try #require(data[context: 1])))
            }
        }
        return out
    }

    @Test("every request and response of the commissioning decodes as its generated type and encodes to the same bytes")
    func commandsRoundTrip() throws {
        var checked = 0
        for responses in [false, true] {
            for (cluster, command, fields) in try Self.commands(responses: responses) {
                let type =
                    responses
                    ? Clusters.responseType(cluster: cluster, command) : Clusters.requestType(cluster: cluster, command)
                let known = try #require(type, "no generated type for \(cluster) \(command)")
                let decoded = try known.init(tlv: fields)
                var writer = TLVWriter()
                decoded.encode(to: &writer, tag: fields.tag)
                #expect(writer.bytes == fields.encoded(), "\(known)")
                checked += 1
            }
        }
        #expect(checked >= 16)
    }

    @Test("every attribute the device reported decodes as its generated type and encodes to the same bytes")
    func attributesRoundTrip() throws {
        var checked = 0
        for message in transcriptMessages where message.name == "ReportData" {
            let root = try TLVElement.decode(hex(message.payload))
            for report in root[context: 1]?.members ?? [] {
                guard let data = report[context: 1], let path = data[context: 1], let value = data[context: 2],
                    let cluster = path[context: 3]?.uint, let attribute = path[context: 4]?.uint,
                    let type = Clusters.attributeType(
                        cluster: ClusterID(UInt32(cluster)), AttributeID(UInt32(attribute)))
                else { continue }
                #expect(try Self.roundTrip(type, value) == value.encoded(), "\(type)")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    static func roundTrip<A: ClusterAttribute>(_ type: A.Type, _ element: TLVElement) throws -> [UInt8] {
        var writer = TLVWriter()
        A.encode(try A.decode(element), to: &writer, tag: element.tag)
        return writer.bytes
    }
}
