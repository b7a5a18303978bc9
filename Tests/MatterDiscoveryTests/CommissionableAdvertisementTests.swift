import MatterCore
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Commissionable records (_matterc._udp)")
struct CommissionableAdvertisementTests {
    /// The digest's illustrative commissionable node (dnssd.md §2).
    static let light = CommissionableAdvertisement(
        instanceName: "0123456789ABCDEF", longDiscriminator: 3840, commissioningMode: .basic,
        vendorID: VendorID(65521), productID: ProductID(32769), deviceType: DeviceTypeID(257), deviceName: "Light",
        pairingHint: .standard)

    static func strings(_ txt: DNSSDTXTRecord) throws -> Set<String> {
        Set(try txt.wireStrings().map { String(decoding: $0, as: UTF8.self) })
    }

    @Test func digestExampleTXTSet() throws {
        let record = try Self.light.serviceRecord()
        #expect(
            try Self.strings(record.txt) == [
                "VP=65521+32769", "SII=500", "SAI=300", "SAT=4000", "D=3840", "CM=1", "DT=257", "DN=Light", "PH=33",
            ])
        #expect(record.serviceType == "_matterc._udp")
        #expect(record.instanceName == "0123456789ABCDEF")
        #expect(record.port == 5540)
        #expect(record.renaming == .randomHex)
    }

    @Test func subtypesForAnOpenWindow() throws {
        #expect(try Self.light.serviceRecord().subtypes == ["_L3840", "_S15", "_V65521", "_T257", "_CM"])
    }

    @Test func closedWindowAndPrivacyDropSubtypesAndKeys() throws {
        var ad = Self.light
        ad.commissioningMode = .notOpen
        ad.vendorID = nil
        ad.productID = nil
        ad.deviceType = nil
        let record = try ad.serviceRecord()
        #expect(record.subtypes == ["_L3840", "_S15"])
        let txt = try Self.strings(record.txt)
        #expect(txt.contains("CM=0"))
        #expect(!txt.contains { $0.hasPrefix("VP=") || $0.hasPrefix("DT=") })
        ad.commissioningMode = .enhanced
        #expect(try ad.serviceRecord().subtypes.last == "_CM")
        #expect(try Self.strings(ad.txtRecord()).contains("CM=2"))
    }

    @Test func vendorWithoutProduct() throws {
        var ad = Self.light
        ad.productID = nil
        #expect(try Self.strings(ad.txtRecord()).contains("VP=65521"))
    }

    @Test func optionalKeysAppearOnlyWhenSet() throws {
        var ad = CommissionableAdvertisement(
            instanceName: "0123456789ABCDEF", longDiscriminator: 0, sessionParameters: MRPAdvertisement())
        #expect(try Self.strings(ad.txtRecord()) == ["D=0", "CM=1"])
        ad.tcpSupport = [.client, .server]
        ad.icdMode = .longIdleTime
        ad.rotatingDeviceID = "00AF"
        ad.sessionParameters = MRPAdvertisement(idleInterval: 3_600_000, activeInterval: 1, activeThreshold: 65535)
        #expect(
            try Self.strings(ad.txtRecord()) == [
                "D=0", "CM=1", "T=6", "ICD=1", "RI=00AF", "SII=3600000", "SAI=1", "SAT=65535",
            ])
    }

    @Test func deviceNameIsCutTo32BytesAtACharacterBoundary() throws {
        var ad = Self.light
        ad.deviceName = String(repeating: "é", count: 20)  // 40 bytes
        let dn = try #require(ad.txtRecord()["DN"])
        #expect(dn == String(repeating: "é", count: 16))
        #expect(dn.utf8.count == 32)
        ad.deviceName = String(repeating: "a", count: 31) + "é"  // 33 bytes: the é does not fit
        #expect(try ad.txtRecord()["DN"] == String(repeating: "a", count: 31))
    }

    @Test func limitsAreEnforced() {
        var cases: [CommissionableAdvertisement] = []
        var ad = Self.light
        ad.longDiscriminator = 4096
        cases.append(ad)
        ad = Self.light
        ad.vendorID = nil
        cases.append(ad)  // product without vendor
        ad = Self.light
        ad.pairingHint = [.customInstruction]
        cases.append(ad)  // PH bit 4 needs PI
        ad = Self.light
        ad.pairingInstruction = String(repeating: "x", count: 129)
        cases.append(ad)
        ad = Self.light
        ad.rotatingDeviceID = "00af"
        cases.append(ad)
        ad = Self.light
        ad.rotatingDeviceID = String(repeating: "A", count: 101)
        cases.append(ad)
        ad = Self.light
        ad.sessionParameters.idleInterval = 3_600_001
        cases.append(ad)
        ad = Self.light
        ad.sessionParameters.activeInterval = 3_600_001
        cases.append(ad)
        ad = Self.light
        ad.tcpSupport = TCPSupport(rawValue: 1)
        cases.append(ad)
        ad = Self.light
        ad.instanceName = String(repeating: "A", count: 64)
        cases.append(ad)
        for bad in cases {
            #expect(throws: DiscoveryError.self) { try bad.serviceRecord() }
        }
        ad = Self.light
        ad.pairingHint = [.pressResetButtonForSeconds]
        ad.pairingInstruction = "10"
        #expect(throws: Never.self) { try ad.serviceRecord() }
    }

    @Test func parseRoundTrip() throws {
        var ad = Self.light
        ad.pairingInstruction = "5"
        ad.rotatingDeviceID = "0A0B"
        ad.tcpSupport = .server
        ad.icdMode = .shortIdleTime
        ad.port = 5541
        let record = try ad.serviceRecord()
        let parsed = try CommissionableAdvertisement(
            instanceName: record.instanceName, port: record.port, txt: record.txt)
        #expect(parsed == ad)
    }

    @Test func parseIsCaseInsensitiveAndLenientOnOptionalKeys() throws {
        let txt = DNSSDTXTRecord(
            wireStrings: [
                "d=3840", "vp=65521", "dt=x1", "T=1", "SII=99999999", "sat=4000", "PH=", "JF=3", "ICD=7",
            ].map { Array($0.utf8) })
        let ad = try CommissionableAdvertisement(instanceName: "X", port: 5540, txt: txt)
        #expect(ad.longDiscriminator == 3840)
        #expect(ad.commissioningMode == .notOpen)  // CM absent
        #expect(ad.vendorID == VendorID(65521))
        #expect(ad.productID == nil)
        #expect(ad.deviceType == nil)  // malformed: ignored
        #expect(ad.tcpSupport == .server)  // legacy boolean T=1
        #expect(ad.sessionParameters == MRPAdvertisement(idleInterval: nil, activeInterval: nil, activeThreshold: 4000))
        #expect(ad.sessionParameters.effectiveIdleInterval == 500)
        #expect(ad.sessionParameters.effectiveActiveInterval == 300)
        #expect(ad.pairingHint == nil)
        #expect(ad.icdMode == nil)
        #expect(ad.shortDiscriminator == 15)
    }

    @Test(arguments: [[String](), ["D="], ["D=4096"], ["D=-1"], ["D=0x10"], ["D=3840", "CM=one"]])
    func parseRejectsAMissingOrBadDiscriminator(_ strings: [String]) {
        let txt = DNSSDTXTRecord(wireStrings: strings.map { Array($0.utf8) })
        #expect(throws: DiscoveryError.self) { try CommissionableAdvertisement(instanceName: "X", port: 1, txt: txt) }
    }

    @Test func tcpBitmapParse() throws {
        for (text, expected) in [("2", TCPSupport.client), ("4", .server), ("6", [.client, .server]), ("0", [])] {
            let txt = DNSSDTXTRecord(wireStrings: [Array("D=1".utf8), Array("T=\(text)".utf8)])
            #expect(try CommissionableAdvertisement(instanceName: "X", port: 1, txt: txt).tcpSupport == expected)
        }
    }
}
