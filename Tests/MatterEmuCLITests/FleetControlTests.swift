import Foundation
import MatterTestSupport
import Testing

/// `fleet --control`: one socket, every request names its device.
@Suite struct FleetControlTests {
    @Test("requests go to the device they name; an unknown or missing device is refused and changes nothing")
    func requestsNameTheirDevice() throws {
        let fleet = try ControlledProcess(["fleet", "--count", "2", "--type", "on-off-light"])
        let on = #"{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true"#
        #expect(try fleet.ctl(on + #","device":1}"#).exitCode == 0)
        #expect(try fleet.get(1, "OnOff", "OnOff", device: 1) as? Bool == true)
        #expect(try fleet.get(1, "OnOff", "OnOff", device: 0) as? Bool == false)

        for (request, mention) in [
            (on + "}", "names its \"device\""), (on + #","device":2}"#, "no device 2"),
            (on + #","device":"Nowhere"}"#, "Nowhere"), (on + #","device":true}"#, "no device"),
        ] {
            let (code, answer) = try fleet.ctl(request)
            #expect(code == 8)
            #expect((answer["error"] as? String)?.contains(mention) == true, "\(answer)")
        }
        #expect(try fleet.get(1, "OnOff", "OnOff", device: 0) as? Bool == false)

        // By node label, and a reboot of one device leaves the other alone.
        let label =
            #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":"Desk","device":0}"#
        #expect(try fleet.ctl(label).exitCode == 0)
        #expect(try fleet.ctl(#"{"op":"reboot","device":"Desk"}"#).exitCode == 0)
        #expect(try fleet.get(0, "GeneralDiagnostics", "RebootCount", device: 0) as? Int == 2)
        #expect(try fleet.get(0, "GeneralDiagnostics", "RebootCount", device: 1) as? Int == 1)
        let list = try fleet.ctl(#"{"op":"devices"}"#).answer["devices"] as? [[String: Any]]
        #expect(list?.map { $0["label"] as? String } == ["Desk", ""])

        // The app pipe, whose commands are handled in order: one without "device" is refused (logged)
        // and changes nothing; one naming its device goes to that device.
        try fleet.writePipe(#"{"Name":"Onoff","onoff":1}"#)
        try fleet.writePipe(#"{"Name":"Onoff","onoff":0,"device":1}"#)
        #expect(try fleet.eventually { try fleet.get(1, "OnOff", "OnOff", device: 1) as? Bool == false })
        #expect(try fleet.get(1, "OnOff", "OnOff", device: 0) as? Bool == false)
        try fleet.writePipe(#"{"Name":"Onoff","onoff":1,"device":"Desk"}"#)
        #expect(try fleet.eventually { try fleet.get(1, "OnOff", "OnOff", device: 0) as? Bool == true })
    }
}
