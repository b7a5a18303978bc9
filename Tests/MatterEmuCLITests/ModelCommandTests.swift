import Foundation
import MatterTestSupport
import Testing

/// `matter-emu model ...`: the generated data model, printed as it is.
@Suite("matter-emu model: the data model from the specification")
struct ModelCommandTests {
    @Test func clustersAndDeviceTypesAreListed() throws {
        let clusters = try ProcessRunner.runMatterEmu(["model", "clusters", "--json"])
        #expect(clusters.exitCode == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(clusters.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 132)
        #expect(list.contains { $0["cliName"] as? String == "timesynchronization" && $0["id"] as? Int == 0x38 })
        let types = try ProcessRunner.runMatterEmu(["model", "device-types"])
        #expect(types.exitCode == 0)
        #expect(types.stdout.contains("0x0302  temperature-sensor"))
        #expect(types.lines.count == 91)
    }

    @Test func oneClusterWithItsFacts() throws {
        let result = try ProcessRunner.runMatterEmu(["model", "cluster", "0x0006", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let cluster = try result.json()
        #expect(cluster["name"] as? String == "OnOff")
        let attributes = try #require(cluster["attributes"] as? [[String: Any]])
        let startUp = try #require(attributes.first { $0["cliName"] as? String == "start-up-on-off" })
        #expect(startUp["nullable"] as? Bool == true)
        #expect(startUp["write"] as? String == "manage")
        #expect(startUp["conformance"] as? String == "LT")
        let features = try #require(cluster["features"] as? [[String: Any]])
        #expect(features.first { $0["code"] as? String == "OFFONLY" }?["conformance"] as? String == "[!(LT | DF)]")
        let text = try ProcessRunner.runMatterEmu(["model", "cluster", "levelcontrol"])
        #expect(text.stdout.contains("move-to-level-with-on-off level optionsMask optionsOverride") == false)
        #expect(text.stdout.contains("0x04 move-to-level-with-on-off level transitionTime optionsMask optionsOverride"))
    }

    @Test func oneDeviceType() throws {
        let result = try ProcessRunner.runMatterEmu(["model", "device-type", "dimmable-light"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("DimmableLight (0x0101), revision 3"))
        #expect(result.stdout.contains("server 0x0008 LevelControl  [M]"))
    }

    @Test func unknownNamesAreUsageErrorsWithTheNearest() throws {
        let cluster = try ProcessRunner.runMatterEmu(["model", "cluster", "thermostatt"])
        #expect(cluster.exitCode == 2)
        #expect(cluster.stderr.contains("nearest: thermostat"))
        let type = try ProcessRunner.runMatterEmu(["model", "device-type", "dimable-light"])
        #expect(type.exitCode == 2)
        #expect(type.stderr.contains("dimmable-light"))
    }
}
