import MatterTestSupport
import Testing

@testable import MatterDiscovery

@Suite("Raw Avahi records of a service")
struct AvahiRawRecordTests {
    static let instance = "A19F62D0BA2CFE68"
    static let service = "A19F62D0BA2CFE68._matterc._udp.local"

    static func records(txt: [[UInt8]] = [Array("D=3840".utf8), Array("CM=1".utf8)]) throws -> [AvahiRawRecord] {
        let record = DNSSDServiceRecord(
            serviceType: "_matterc._udp", instanceName: instance, port: 5540, subtypes: ["_L3840", "_S15", "_CM"])
        return try AvahiRawRecord.serviceRecords(
            record, instanceName: instance, serviceName: service, hostName: "me-h1.local", domain: "local", txt: txt)
    }

    static func wire(_ labels: String...) -> [UInt8] {
        labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + [0]
    }

    @Test func sharedPointersFromTheTypeAndEachSubtype() throws {
        let ptrs = try Self.records().filter { $0.type == AvahiRawRecord.typePTR }
        #expect(
            ptrs.map(\.name) == [
                "_matterc._udp.local", "_L3840._sub._matterc._udp.local", "_S15._sub._matterc._udp.local",
                "_CM._sub._matterc._udp.local",
            ])
        #expect(ptrs.allSatisfy { !$0.unique && $0.ttl == 4500 })
        let toInstance = Self.wire(Self.instance, "_matterc", "_udp", "local")
        #expect(ptrs.allSatisfy { $0.rdata == toInstance })
    }

    @Test func oneServiceEnumerationPointerPerType() throws {
        let ptr = try AvahiRawRecord.serviceEnumeration(serviceType: "_matterc._udp", domain: "local")
        #expect(ptr.name == "_services._dns-sd._udp.local" && ptr.type == AvahiRawRecord.typePTR && !ptr.unique)
        #expect(ptr.rdata == Self.wire("_matterc", "_udp", "local"))
    }

    @Test func uniqueSRVToTheHostAndTXT() throws {
        let records = try Self.records()
        let srv = try #require(records.first { $0.type == AvahiRawRecord.typeSRV })
        #expect(srv.name == Self.service && srv.unique && srv.ttl == 120)
        #expect(srv.rdata == [0, 0, 0, 0, 0x15, 0xA4] + Self.wire("me-h1", "local"))
        let txt = try #require(records.first { $0.type == AvahiRawRecord.typeTXT })
        #expect(txt.name == Self.service && txt.unique && txt.ttl == 4500)
        #expect(txt.rdata == [6] + Array("D=3840".utf8) + [4] + Array("CM=1".utf8))
    }

    @Test func emptyTXTIsOneEmptyString() throws {
        let txt = try #require(try Self.records(txt: []).first { $0.type == AvahiRawRecord.typeTXT })
        #expect(txt.rdata == [0])
    }

    @Test func overlongLabelsAreRejected() {
        #expect(throws: DiscoveryError.self) {
            _ = try AvahiRawRecord.encodeName([[UInt8](repeating: 0x41, count: 64)])
        }
    }

    @Test func serviceNamesAreEscapedByAvahi() {
        // Avahi's text form escapes spaces and '#' as decimal \DDD, and a dot inside the label.
        #expect(
            AvahiConnection.serviceName(instance: "Desk lamp #2", type: "_matter._tcp", domain: "local")
                == "Desk\\032lamp\\032\\0352._matter._tcp.local")
        #expect(
            AvahiConnection.serviceName(instance: "a.b", type: "_matter._tcp", domain: "local")
                == "a\\.b._matter._tcp.local")
    }
}
