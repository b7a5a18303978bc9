import MatterCore
import MatterDiscovery
import MatterTestSupport
import Testing

@Suite("Discovery filters")
struct FilterTests {
    static let light = CommissionableAdvertisementTests.light
    static var other: CommissionableAdvertisement {
        CommissionableAdvertisement(
            instanceName: "FEDCBA9876543210", longDiscriminator: 1234, commissioningMode: .notOpen,
            vendorID: VendorID(65522), deviceType: DeviceTypeID(266))
    }

    @Test func commissionableFiltersBrowseTheirSubtype() {
        let cases: [(CommissionableFilter, String)] = [
            (.any, "_matterc._udp"),
            (.longDiscriminator(3840), "_L3840._sub._matterc._udp"),
            (.shortDiscriminator(15), "_S15._sub._matterc._udp"),
            (.vendor(VendorID(65521)), "_V65521._sub._matterc._udp"),
            (.deviceType(DeviceTypeID(257)), "_T257._sub._matterc._udp"),
            (.commissioningMode, "_CM._sub._matterc._udp"),
            (.instanceName("0123456789ABCDEF"), "_matterc._udp"),
        ]
        for (filter, type) in cases {
            #expect(filter.query.browseType == type)
            #expect(filter.query.serviceType == "_matterc._udp")
        }
        #expect(CommissionableFilter.instanceName("abc").query.instanceName == "abc")
    }

    @Test func commissionableFiltersMatchTheTXTData() {
        let matchesLightOnly: [CommissionableFilter] = [
            .longDiscriminator(3840), .shortDiscriminator(15), .vendor(VendorID(65521)), .deviceType(DeviceTypeID(257)),
            .commissioningMode, .instanceName("0123456789abcdef"),
        ]
        for filter in matchesLightOnly {
            #expect(filter.matches(Self.light), "\(filter)")
            #expect(!filter.matches(Self.other), "\(filter)")
        }
        #expect(CommissionableFilter.any.matches(Self.other))
        #expect(CommissionableFilter.shortDiscriminator(4).matches(Self.other))
        #expect(CommissionableFilter.longDiscriminator(1234).matches(Self.other))
    }

    @Test func operationalFilters() {
        let node = OperationalAdvertisementTests.node
        let cfid = DigestVector.compressedFabricID
        #expect(OperationalFilter.any.query.browseType == "_matter._tcp")
        #expect(OperationalFilter.compressedFabricID(cfid).query.browseType == "_I87E1B004E235A130._sub._matter._tcp")
        let one = OperationalFilter.node(compressedFabricID: cfid, nodeID: NodeID(DigestVector.nodeID))
        #expect(one.query.browseType == "_matter._tcp")
        #expect(one.query.instanceName == DigestVector.instance)
        #expect(one.query.accepts(instanceName: DigestVector.instance.lowercased()))
        #expect(!one.query.accepts(instanceName: "87E1B004E235A130-0000000000000001"))
        #expect(one.matches(node))
        #expect(OperationalFilter.compressedFabricID(cfid).matches(node))
        #expect(!OperationalFilter.compressedFabricID(cfid + 1).matches(node))
        #expect(!OperationalFilter.node(compressedFabricID: cfid, nodeID: NodeID(1)).matches(node))
    }
}
