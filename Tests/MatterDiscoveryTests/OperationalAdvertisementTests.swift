import MatterCore
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Operational records (_matter._tcp)")
struct OperationalAdvertisementTests {
    static let node = OperationalAdvertisement(
        compressedFabricID: DigestVector.compressedFabricID, nodeID: NodeID(DigestVector.nodeID))

    @Test func digestVectorRecord() throws {
        let record = try Self.node.serviceRecord()
        #expect(record.serviceType == "_matter._tcp")
        #expect(record.instanceName == DigestVector.instance)
        #expect(record.subtypes == ["_I87E1B004E235A130"])
        #expect(record.port == 5540)
        #expect(record.renaming == .numbered)
        #expect(!record.probes)  // the fabric's administrator assigned the name: announced at once
        #expect(record.txt.description == "SII=500 SAI=300 SAT=4000")
    }

    @Test func emptyTXTWhenNothingIsAdvertised() throws {
        var node = Self.node
        node.sessionParameters = MRPAdvertisement()
        #expect(try node.txtRecord().entries.isEmpty)
        node.tcpSupport = .client
        #expect(try node.txtRecord().description == "T=2")
    }

    @Test func parseRoundTrip() throws {
        var node = Self.node
        node.port = 6000
        node.tcpSupport = [.client, .server]
        node.icdMode = .longIdleTime
        node.sessionParameters = MRPAdvertisement(idleInterval: 5000, activeInterval: 300, activeThreshold: nil)
        let record = try node.serviceRecord()
        let parsed = try OperationalAdvertisement(instanceName: record.instanceName, port: 6000, txt: record.txt)
        #expect(parsed == node)
    }

    @Test func parseRejectsANonOperationalName() {
        #expect(throws: DiscoveryError.self) {
            try OperationalAdvertisement(instanceName: "0123456789ABCDEF", port: 1, txt: DNSSDTXTRecord())
        }
    }
}
