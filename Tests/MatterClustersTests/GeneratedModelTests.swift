import Foundation
import MatterClusters
import MatterCore
import MatterTestSupport
import Testing

/// The generated Swift (Sources/MatterClusters/Generated, Sources/MatterHome/Generated) is what the generator makes of the committed model
/// file (model/matter-1.5.json), byte for byte after the toolchain's swift-format, as scripts/model/generate.sh
/// writes it; and the model's notations read as the specification means them.
@Suite("The data model generated from the specification")
struct GeneratedModelTests {
    static let root = TestPaths.repositoryRoot

    /// Every file below `directory`, by its relative path.
    static func files(below directory: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return out
        }
        for case let url as URL in walker where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            out[path] = try Data(contentsOf: url)
        }
        return out
    }

    @Test("the committed generated files are current (run scripts/model/generate.sh when this fails)")
    // Async, so that the minute swift-format takes does not hold one of the few threads of the test
    // process's concurrency pool (other tests' handlers run there: an HTTP server's timed out behind it).
    func generatedFilesAreCurrent() async throws {
        let generator = ProcessRunner.matterEmu.deletingLastPathComponent().appendingPathComponent("matter-model-gen")
        try #require(FileManager.default.isExecutableFile(atPath: generator.path), "build matter-model-gen first")
        let scratch = try TemporaryDirectory()
        let out = scratch.url.appendingPathComponent("Generated")
        let home = scratch.url.appendingPathComponent("HomeGenerated")
        let model = Self.root.appendingPathComponent("model/matter-1.5.json").path
        let generated = try await ProcessRunner.run([generator.path, model, out.path, home.path], limit: .seconds(120))
        try #require(generated.exitCode == 0, "matter-model-gen: \(generated.stderr)")
        let format = try await ProcessRunner.run(
            [
                "swift", "format", "format", "-i", "--configuration",
                Self.root.appendingPathComponent(".swift-format").path, "--recursive", out.path, home.path,
            ], limit: .seconds(300))
        try #require(format.exitCode == 0, "swift format: \(format.stderr)")
        for (fresh, committedPath, least) in [
            (out, "Sources/MatterClusters/Generated", 100), (home, "Sources/MatterHome/Generated", 130),
        ] {
            let freshFiles = try Self.files(below: fresh)
            let committed = try Self.files(below: Self.root.appendingPathComponent(committedPath))
            #expect(freshFiles.count > least)
            #expect(Set(freshFiles.keys) == Set(committed.keys), "files added to or removed from \(committedPath)")
            let stale = freshFiles.keys.filter { committed[$0] != freshFiles[$0] }.sorted()
            #expect(stale.isEmpty, "stale generated files in \(committedPath): \(stale.joined(separator: ", "))")
        }
    }

    @Test func everyClusterAndDeviceTypeOfTheModel() {
        let registry = ClusterRegistry.standard
        #expect(registry.clusters.count == 132)
        #expect(DeviceTypeSchema.all.count == 91)
        #expect(ClusterRegistry.specificationVersion == "1.5")
        #expect(Set(registry.clusters.map(\.id)).count == registry.clusters.count)
        // Derived clusters are flattened over their base: a mode cluster has ModeBase's attributes and command.
        let run = registry.cluster(.rvcRunMode)
        #expect(run?.base == "ModeBase")
        #expect(
            run?.attribute(named: "supported-modes")?.type
                == .list(.structure(StructSchema.RvcRunMode.modeOptionStruct)))
        #expect(run?.command(named: "change-to-mode")?.response == .command(CommandID.RvcRunMode.changeToModeResponse))
        #expect(registry.cluster(.carbonDioxideConcentrationMeasurement)?.attribute(named: "measured-value") != nil)
    }

    @Test func attributesCarryTheSpecificationsFacts() throws {
        let onOff = ClusterSchema.onOff
        let startUp = try #require(onOff.attribute(AttributeID.OnOff.startUpOnOff))
        #expect(startUp.isNullable && startUp.isWritable && startUp.writePrivilege == .manage)
        #expect(startUp.typeName == "StartUpOnOffEnum" && startUp.quality.contains(.nonVolatile))
        #expect(startUp.conformance == .mandatoryIf(.name("LT")))
        #expect(onOff.enumeration(named: "StartUpOnOffEnum")?.value(named: "toggle")?.value == 2)
        #expect(onOff.bitmap(named: "OnOffControlBitmap")?.fields.first?.mask == 0x01)
        let label = try #require(ClusterSchema.basicInformation.attribute(named: "node-label"))
        #expect(label.type == .string(maxLength: 32) && label.writePrivilege == .manage)
        let acl = try #require(ClusterSchema.accessControl.attribute(named: "acl"))
        #expect(acl.isFabricScoped && acl.readPrivilege == .administer && acl.writePrivilege == .administer)
        let level = try #require(ClusterSchema.levelControl.attribute(named: "current-level"))
        #expect(level.isNullable && level.quality.contains(.quieterReporting))
        #expect(ClusterSchema.levelControl.attribute(named: "max-level")?.defaultValue == .integer(254))
        let timed = try #require(ClusterSchema.doorLock.command(named: "lock-door"))
        #expect(timed.requiresTimedInvoke)
        let leave = try #require(ClusterSchema.basicInformation.event(named: "leave"))
        #expect(leave.priority == .info && leave.fields.first?.name == "FabricIndex")
        let utc = try #require(ClusterSchema.timeSynchronization.attribute(named: "utc-time"))
        #expect(utc.isNullable && utc.type == .unsigned(bits: 64))
        let labels = try #require(ClusterSchema.userLabel.attribute(named: "label-list"))
        #expect(labels.isWritable && labels.type.isList)
    }

    @Test func conformanceIsEvaluatedOverFeatures() throws {
        let onOff = ClusterSchema.onOff
        let lighting: Set<String> = ["LT"]
        let presence = { (name: String, features: Set<String>) in
            onOff.attribute(named: name)?.conformance.presence(features: features)
        }
        #expect(presence("on-time", lighting) == .mandatory)
        #expect(presence("on-time", []) == .disallowed)
        #expect(presence("on-off", []) == .mandatory)
        let offOnly = try #require(onOff.feature(named: "OFFONLY"))
        #expect(offOnly.conformance.presence(features: ["LT"]) == .disallowed)
        #expect(offOnly.conformance.presence(features: []) == .optional)
        #expect(onOff.command(named: "toggle")?.conformance.presence(features: ["OFFONLY"]) == .disallowed)
        // Otherwise lists take the first term that applies; choices keep their group.
        #expect(Conformance.otherwise([.provisional, .mandatory]).presence(features: []) == .optional)
        #expect(
            Conformance.otherwise([.mandatoryIf(.name("LITS")), .optional]).presence(features: ["LITS"]) == .mandatory)
        #expect(Conformance.choice(.optional, "a+").description == "O.a+")
        #expect(Conformance.optionalIf(.not(.or(.name("LT"), .name("DF")))).description == "[!(LT | DF)]")
        // A comparison cannot be evaluated from features: the element is optional.
        #expect(Conformance.mandatoryIf(.comparison("Status == Success")).presence(features: []) == .optional)
    }

    @Test func deviceTypesListTheirClusters() throws {
        let light = try #require(DeviceTypeSchema.named("dimmable-light"))
        #expect(light.id == 0x0101 && light.revision == 3 && light.cliName == "dimmable-light")
        let level = try #require(light.clusters.first { $0.cluster == .levelControl })
        #expect(level.side == .server && level.conformance == .mandatory && level.features.contains("LIGHTING"))
        #expect(DeviceTypeSchema.named("0x0302")?.name == "TemperatureSensor")
        #expect(DeviceTypeSchema.named("robotic-vacuum-cleaner")?.id == 0x0074)
        #expect(DeviceTypeSchema.named("no-such-thing") == nil)
    }
}
