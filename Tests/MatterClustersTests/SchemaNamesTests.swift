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

    /// chip-tool's cluster names (its `matter-emu <cluster> ...` words), a sample across the model.
    @Test func clusterNames() {
        let names = Set(ClusterRegistry.standard.clusters.map(\.cliName))
        let chipTool = [
            "identify", "groups", "onoff", "levelcontrol", "descriptor", "accesscontrol", "basicinformation",
            "generalcommissioning", "networkcommissioning", "generaldiagnostics", "administratorcommissioning",
            "operationalcredentials", "groupkeymanagement", "scenesmanagement", "doorlock", "colorcontrol",
            "timesynchronization", "userlabel", "fixedlabel", "thermostat", "windowcovering", "fancontrol",
            "temperaturemeasurement", "booleanstate", "switch", "icdmanagement", "otasoftwareupdateprovider",
            "wifinetworkdiagnostics", "pm25concentrationmeasurement", "rvcrunmode", "energyevse", "smokecoalarm",
            "cameraavstreammanagement", "webrtctransportprovider", "bridgeddevicebasicinformation", "closurecontrol",
        ]
        for name in chipTool { #expect(names.contains(name), "\(name)") }
        #expect(names.count == ClusterRegistry.standard.clusters.count, "two clusters share a chip-tool name")
    }
}
