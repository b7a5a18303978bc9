import MatterClusters
import MatterTestSupport
import Testing

@Suite("chip-tool style names")
struct SchemaNamesTests {
    @Test(arguments: [
        ("CurrentLevel", "current-level"), ("VendorID", "vendor-id"), ("CSRRequest", "csrrequest"),
        ("NOCs", "nocs"), ("ProductURL", "product-url"), ("AddNOC", "add-noc"), ("ACL", "acl"),
        ("StartUpOnOff", "start-up-on-off"), ("ColorTempPhysicalMinMireds", "color-temp-physical-min-mireds"),
        ("MoveToLevelWithOnOff", "move-to-level-with-on-off"), ("UniqueID", "unique-id"), ("CurrentX", "current-x"),
    ])
    func kebabCase(name: String, expected: String) {
        #expect(SchemaNames.kebabCase(name) == expected)
    }

    @Test(arguments: [
        ("FabricIndex", "fabricIndex"), ("NOCSRElements", "nocsrElements"), ("ICAC", "icac"), ("VendorID", "vendorID"),
        ("NOC", "noc"), ("AuthMode", "authMode"), ("value", "value"),
    ])
    func camelCase(name: String, expected: String) {
        #expect(SchemaNames.camelCase(name) == expected)
    }

    @Test func clusterNames() {
        let names = ClusterRegistry.standard.clusters.map(\.cliName)
        #expect(
            names == [
                "identify", "groups", "onoff", "levelcontrol", "descriptor", "accesscontrol", "basicinformation",
                "generalcommissioning", "networkcommissioning", "generaldiagnostics", "administratorcommissioning",
                "operationalcredentials", "groupkeymanagement", "scenesmanagement", "doorlock", "colorcontrol",
            ])
    }
}
