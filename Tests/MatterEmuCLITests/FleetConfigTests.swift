import Foundation
import MatterTestSupport
import Testing

/// Every key of a fleet configuration is checked (issue 35, cause 11), and a label two devices share
/// names neither.
@Suite struct FleetConfigTests {
    @Test(arguments: [
        (#"{"groups":[]}"#, #""groups" is empty: a fleet needs at least one group"#),
        (
            #"{"groups":[{"type":"on-off-light","count":1}],"basePrt":6000}"#,
            #"unknown key "basePrt" (did you mean "basePort"?)"#
        ),
        (#"{"groups":[{"type":"on-off-light","cont":2}]}"#, #"group 0: unknown key "cont" (did you mean "count"?)"#),
        (
            #"{"groups":[{"type":"on-off-light","count":1}],"basePort":70000}"#,
            #""basePort" must be a whole number 0...65535"#
        ),
        (#"{"groups":[{"type":"on-off-light","count":0}]}"#, #""count", a whole number 1...65535"#),
        (#"{"groups":[{"type":"on-off-light","count":1.5}]}"#, #""count", a whole number 1...65535"#),
        (#"{"groups":[{"type":"on-off-light","count":"3"}]}"#, #""count", a whole number 1...65535"#),
        (#"{"groups":[{"type":"on-off-light","count":1,"name":7}]}"#, #""name" must be a string"#),
        (#"[1,2]"#, "not a JSON object"),
        (
            #"{"groups":[{"type":"temperature-sensor","count":1,"scripts":[5]}]}"#,
            #""scripts" must be a list of strings"#
        ),
        (
            #"{"groups":[{"type":"temperature-sensor","count":1,"scripts":["TemperatureMeasurement.MeasuredValue=walk(min=0)"]}]}"#,
            "group 0: script TemperatureMeasurement.MeasuredValue=walk(min=0): walk needs max=NUMBER"
        ),
    ])
    func badConfigurationsAreUsageErrors(config: String, message: String) throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-fleetcfg")
        try temporary.write(config, "fleet.json")
        let result = try ProcessRunner.runMatterEmu(
            ["fleet", "--config", temporary.file("fleet.json"), "--no-advertise", "--state-dir", temporary.path],
            limit: .seconds(60))
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: temporary.file("fleet.sqlite")))
    }

    @Test func aLabelTwoDevicesShareIsRefusedAsAmbiguous() throws {
        let configs = try TemporaryDirectory(prefix: "matter-emu-fleetcfg")
        // Two groups with one prefix: both devices are labelled "Lamp 1".
        try configs.write(
            #"{"groups":[{"type":"on-off-light","count":1,"name":"Lamp"},{"type":"on-off-light","count":1,"name":"Lamp"}]}"#,
            "fleet.json")
        let fleet = try ControlledProcess(["fleet", "--config", configs.file("fleet.json")])
        let on = #"{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true,"device":"Lamp 1"}"#
        let (code, answer) = try fleet.ctl(on)
        #expect(code == 8)
        #expect((answer["error"] as? String)?.contains("is ambiguous: devices 0, 1 have it") == true, "\(answer)")
        // Not the repro: the app pipe, and a label made shared through the control plane afterwards.
        try fleet.writePipe(#"{"Name":"Onoff","onoff":1,"device":"Lamp 1"}"#)
        let rename =
            #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":"Lamp 1","device":1}"#
        #expect(try fleet.ctl(rename).exitCode == 0)
        #expect(fleet.eventually { fleet.stderr.contains("is ambiguous") })
        for device in [0, 1] { #expect(try fleet.get(1, "OnOff", "OnOff", device: device) as? Bool == false) }
        let relabel =
            #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":"Desk","device":0}"#
        #expect(try fleet.ctl(relabel).exitCode == 0)
        #expect(try fleet.ctl(on).exitCode == 0)
        #expect(try fleet.get(1, "OnOff", "OnOff", device: 1) as? Bool == true)
    }
}
