import MatterClusters
import MatterCore
import MatterTestSupport
import Testing

@Suite("Cluster registry and schemas")
struct ClusterRegistryTests {
    let registry = ClusterRegistry.standard

    @Test func lookupsByNameAndID() throws {
        #expect(registry.cluster(named: "onoff")?.id == .onOff)
        #expect(registry.cluster(named: "LevelControl")?.id == .levelControl)
        #expect(registry.cluster(named: "0x0300")?.id == .colorControl)
        #expect(registry.cluster(named: "40")?.id == .basicInformation)
        #expect(registry.cluster(named: "nosuch") == nil)
        #expect(throws: ClusterSchemaError.unknownCluster("nosuch")) { try registry.requireCluster(named: "nosuch") }
        let level = try registry.requireCluster(named: "levelcontrol")
        #expect(try level.requireAttribute(named: "current-level").id == .LevelControl.currentLevel)
        #expect(try level.requireAttribute(named: "0xFFFC").id == .featureMap)
        #expect(try level.requireAttribute(named: "feature-map").name == "FeatureMap")
        #expect(try level.requireCommand(named: "move-to-level").id == .LevelControl.moveToLevel)
        #expect(throws: ClusterSchemaError.self) { try level.requireCommand(named: "toggle") }
    }

    @Test func everyClusterIsConsistent() {
        for cluster in registry.clusters {
            let ids = cluster.allAttributes.map(\.id)
            #expect(Set(ids).count == ids.count, "duplicate attribute in \(cluster.name)")
            #expect(
                Set(cluster.commands.map(\.id)).count == cluster.commands.count, "duplicate command in \(cluster.name)")
            #expect(Set(cluster.allAttributes.map(\.cliName)).count == ids.count, "duplicate name in \(cluster.name)")
            for command in cluster.commands {
                if case .command(let response) = command.response {
                    #expect(cluster.response(response) != nil, "\(cluster.name).\(command.name) response missing")
                }
                let tags = command.fields.map(\.tag)
                #expect(tags == tags.sorted(), "\(cluster.name).\(command.name) fields out of order")
            }
            #expect(cluster.attribute(.clusterRevision) != nil)
        }
    }

    @Test func qualitiesFromClustersMarkdown() throws {
        let onOff = try registry.requireCluster(named: "onoff")
        let startUp = try onOff.requireAttribute(named: "start-up-on-off")
        #expect(startUp.isNullable && startUp.writePrivilege == .manage && startUp.type == .enum8)
        #expect(try onOff.requireAttribute(named: "on-off").isWritable == false)
        let doorLock = try registry.requireCluster(named: "doorlock")
        #expect(try doorLock.requireCommand(named: "lock-door").requiresTimedInvoke)
        #expect(try doorLock.requireAttribute(named: "wrong-code-entry-limit").writePrivilege == .administer)
        let admin = try registry.requireCluster(named: "administratorcommissioning")
        #expect(admin.commands.allSatisfy { $0.requiresTimedInvoke && $0.privilege == .administer })
        let acl = try registry.requireCluster(named: "accesscontrol").requireAttribute(named: "acl")
        #expect(acl.isFabricScoped && acl.readPrivilege == .administer && acl.writePrivilege == .administer)
        let complete = try registry.requireCluster(named: "generalcommissioning").requireCommand(
            named: "commissioning-complete")
        #expect(
            complete.isFabricScoped
                && complete.response == .command(.GeneralCommissioning.commissioningCompleteResponse))
        let groups = try registry.requireCluster(named: "groups")
        #expect(groups.commands.allSatisfy { $0.isFabricScoped })
        let nocs = try registry.requireCluster(named: "operationalcredentials").requireAttribute(named: "nocs")
        #expect(nocs.readPrivilege == .administer && nocs.isFabricScoped)
        #expect(Privilege.administer.grants(.operate) && !Privilege.view.grants(.operate))
    }
}
