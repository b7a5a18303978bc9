import MatterCore
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Matter DNS-SD names and subtypes")
struct MatterNamesTests {
    @Test func subtypesMatchTheDigestExamples() {
        #expect(MatterDNSSD.longDiscriminatorSubtype(3840) == "_L3840")
        #expect(MatterDNSSD.shortDiscriminatorSubtype(15) == "_S15")
        #expect(MatterDNSSD.vendorSubtype(VendorID(65521)) == "_V65521")
        #expect(MatterDNSSD.deviceTypeSubtype(DeviceTypeID(257)) == "_T257")
        #expect(MatterDNSSD.commissioningModeSubtype == "_CM")
        #expect(MatterDNSSD.compressedFabricSubtype(DigestVector.compressedFabricID) == "_I87E1B004E235A130")
        #expect(MatterDNSSD.subtypeServiceName("_L3840", of: "_matterc._udp") == "_L3840._sub._matterc._udp")
        #expect(
            MatterDNSSD.subtypeServiceName("_I87E1B004E235A130", of: "_matter._tcp")
                == "_I87E1B004E235A130._sub._matter._tcp")
    }

    @Test func subtypeNumbersAreDecimalWithoutLeadingZeros() {
        #expect(MatterDNSSD.longDiscriminatorSubtype(0) == "_L0")
        #expect(MatterDNSSD.longDiscriminatorSubtype(7) == "_L7")
        #expect(MatterDNSSD.vendorSubtype(VendorID(0x000A)) == "_V10")
        #expect(MatterDNSSD.compressedFabricSubtype(0x1) == "_I0000000000000001")
    }

    @Test func shortDiscriminatorIsTheTopFourBits() {
        #expect(MatterDNSSD.shortDiscriminator(ofLong: 3840) == 15)
        #expect(MatterDNSSD.shortDiscriminator(ofLong: 0x0FFF) == 15)
        #expect(MatterDNSSD.shortDiscriminator(ofLong: 1234) == 4)
        #expect(MatterDNSSD.shortDiscriminator(ofLong: 255) == 0)
    }

    @Test func operationalInstanceNameFromTheDigestVector() throws {
        let name = MatterInstanceName.operational(
            compressedFabricID: DigestVector.compressedFabricID, nodeID: NodeID(DigestVector.nodeID))
        #expect(name == DigestVector.instance)
        #expect(name.count == 33)
        #expect(
            MatterInstanceName.operational(compressedFabricID: 1, nodeID: NodeID(2))
                == "0000000000000001-0000000000000002")
        let parsed = try MatterInstanceName.parseOperational(DigestVector.instance.lowercased())
        #expect(parsed.compressedFabricID == DigestVector.compressedFabricID)
        #expect(parsed.nodeID == NodeID(DigestVector.nodeID))
    }

    @Test(arguments: [
        "", "87E1B004E235A130", "87E1B004E235A130-8FC7772401CD069", "87E1B004E235A130-8FC7772401CD06961",
        "87E1B004E235A13G-8FC7772401CD0696", "87E1B004E235A130_8FC7772401CD0696", "87E1B004E235A130-8FC7-772401CD0696",
        "+7E1B004E235A130-8FC7772401CD0696",
    ])
    func malformedOperationalNamesThrow(_ name: String) {
        #expect(throws: DiscoveryError.self) { try MatterInstanceName.parseOperational(name) }
    }

    @Test func randomCommissionableNamesAreSixteenUpperCaseHexDigits() {
        var generator = FixedRandom(values: [0xAB])
        #expect(MatterInstanceName.randomCommissionable(using: &generator) == "00000000000000AB")
        generator = FixedRandom(values: [0xDEAD_BEEF_0123_4567])
        #expect(MatterInstanceName.randomCommissionable(using: &generator) == "DEADBEEF01234567")
        let name = MatterInstanceName.randomCommissionable()
        #expect(name.count == 16)
        #expect(name.allSatisfy { $0.isHexDigit && !$0.isLowercase })
        #expect(MatterInstanceName.isRandomHex(name))
        #expect(!MatterInstanceName.isRandomHex("Desk lamp"))
        #expect(!MatterInstanceName.isRandomHex(DigestVector.instance))
    }

    @Test func nextNameAfterACollision() {
        var generator = FixedRandom(values: [0x1111, 0x1111, 0x2222])
        // A fresh random name, never the one that collided.
        #expect(
            MatterInstanceName.next(after: "0000000000001111", renaming: .randomHex, using: &generator)
                == "0000000000002222")
        #expect(MatterInstanceName.next(after: "Desk lamp", renaming: .numbered, using: &generator) == "Desk lamp #2")
        #expect(
            MatterInstanceName.next(after: "Desk lamp #2", renaming: .numbered, using: &generator) == "Desk lamp #3")
        #expect(MatterInstanceName.next(after: "#2", renaming: .numbered, using: &generator) == "#2 #2")
        let long = String(repeating: "x", count: 63)
        let next = MatterInstanceName.next(after: long, renaming: .numbered, using: &generator)
        #expect(next == String(repeating: "x", count: 60) + " #2")
        #expect(next.utf8.count == 63)
    }

    @Test func recordRenamingDefaultsFollowTheNameShape() {
        #expect(
            DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: "0123456789ABCDEF", port: 1).renaming
                == .randomHex)
        #expect(DNSSDServiceRecord(serviceType: "_http._tcp", instanceName: "Desk lamp", port: 1).renaming == .numbered)
    }

    @Test func recordValidation() throws {
        try DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: "A", port: 5540, subtypes: ["_CM"])
            .validate()
        let bad: [DNSSDServiceRecord] = [
            DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: "", port: 1),
            DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: String(repeating: "a", count: 64), port: 1),
            DNSSDServiceRecord(serviceType: "matterc._udp", instanceName: "A", port: 1),
            DNSSDServiceRecord(serviceType: "_matterc._sctp", instanceName: "A", port: 1),
            DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: "A", port: 1, subtypes: ["CM"]),
            DNSSDServiceRecord(serviceType: "_matterc._udp", instanceName: "A", port: 1, subtypes: ["_a.b"]),
        ]
        for record in bad {
            #expect(throws: DiscoveryError.self) { try record.validate() }
        }
    }
}
