import Foundation
import MatterTestSupport
import Testing

/// The control plane's device-level requests and its refusals, through `matter-emu ctl` and a real
/// Unix socket.
@Suite struct ControlPlaneActionTests {
    @Test("bad requests get a clear error and change nothing, a cut-off line included")
    func badRequestsChangeNothing() throws {
        let device = try ControlledProcess(["device", "--type", "dimmable-light"])
        let before = try device.get(1, "LevelControl", "CurrentLevel") as? Int
        let label = try device.get(0, "BasicInformation", "NodeLabel") as? String
        let refused: [(String, String)] = [
            (#"{"op":"set","endpoint":1,"cluster":"LevelControl","attribute":"NoSuchThing","value":3}"#, "NoSuchThing"),
            (#"{"op":"set","endpoint":1,"cluster":"LevelControl","attribute":"CurrentLevel","value":"high"}"#, "high"),
            (#"{"op":"set","endpoint":1,"cluster":"LevelControl","attribute":"CurrentLevel","value":300}"#, "300"),
            (
                #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":42}"#,
                "takes string"
            ),
            (#"{"op":"set","endpoint":1,"cluster":"DoorLock","attribute":"LockState","value":1}"#, "DoorLock"),
            (#"{"op":"set","endpoint":1,"cluster":"LevelControl","attribute":"CurrentLevel""#, "malformed JSON"),
            (#"["op","get"]"#, "one JSON object"),
            (#"{"op":"teleport"}"#, "teleport"),
            (#"{"op":"event","endpoint":1,"cluster":"OnOff","event":"Nope"}"#, "Nope"),
            (
                #"{"op":"event","endpoint":1,"cluster":"DoorLock","event":"DoorLockAlarm","fields":{"alarmCode":0}}"#,
                "DoorLock"
            ),
            (#"{"op":"identify","endpoint":1,"seconds":-1}"#, "seconds"),
            (#"{"op":"open-window","timeout":5}"#, "timeout"),
            (#"{"op":"reboot","reason":"Meteor"}"#, "reason"),
            (#"{"op":"jam"}"#, "DoorLock"),
            (#"{"op":"press"}"#, "Switch"),
        ]
        for (request, mention) in refused {
            let (code, answer) = try device.ctl(request)
            #expect(code == 8, "\(request)")
            #expect(answer["ok"] as? Bool == false)
            let error = answer["error"] as? String ?? ""
            #expect(!error.isEmpty && error.contains(mention), "\(request): \(error)")
        }

        // A client that disconnects mid-line: the partial request is dropped, not applied.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in device.socket.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(connected == 0)
        let partial = Array(
            #"{"op":"set","endpoint":1,"cluster":"LevelControl","attribute":"CurrentLevel","value":7}"#.utf8)
        _ = partial.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        #expect(try device.get(1, "LevelControl", "CurrentLevel") as? Int == before)
        #expect(try device.get(0, "BasicInformation", "NodeLabel") as? String == label)
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool != nil)  // still serving
    }

    @Test("reboot: same node, RebootCount and BootReason, the socket keeps working; factory-reset wipes")
    func rebootKeepsTheNodeAndTheSocket() throws {
        let device = try ControlledProcess(["device", "--type", "on-off-light"])
        #expect(try device.get(0, "GeneralDiagnostics", "RebootCount") as? Int == 1)
        #expect(try device.get(0, "GeneralDiagnostics", "BootReason") as? Int == 1)  // PowerOnReboot
        let uniqueID = try device.get(0, "BasicInformation", "UniqueID") as? String
        #expect(
            try device.ctl(#"{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}"#).exitCode
                == 0)
        let reboot = try device.ctl(#"{"op":"reboot"}"#)
        #expect(reboot.exitCode == 0)
        #expect(reboot.answer["bootReason"] as? String == "SoftwareReset")
        #expect(try device.get(0, "GeneralDiagnostics", "RebootCount") as? Int == 2)
        #expect(try device.get(0, "GeneralDiagnostics", "BootReason") as? Int == 6)
        #expect(try device.get(0, "BasicInformation", "UniqueID") as? String == uniqueID)
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool == true)  // OnOff persisted across the reboot

        #expect(try device.ctl(#"{"op":"factory-reset"}"#).exitCode == 0)
        #expect(try device.get(0, "GeneralDiagnostics", "RebootCount") as? Int == 1)
        #expect(try device.get(0, "BasicInformation", "UniqueID") as? String != uniqueID)
    }

    @Test("event, jam, hardware-fault, identify, offline/online, windows")
    func deviceLevelRequests() throws {
        let device = try ControlledProcess(["device", "--type", "door-lock"])
        let alarm = try device.ctl(
            #"{"op":"event","endpoint":1,"cluster":"DoorLock","event":"DoorLockAlarm","fields":{"alarmCode":4}}"#)
        #expect(alarm.exitCode == 0)
        let first = alarm.answer["eventNumber"] as? Int ?? 0
        #expect(first > 0)
        let jam = try device.ctl(#"{"op":"jam","endpoint":1}"#)
        #expect((jam.answer["eventNumber"] as? Int ?? 0) > first)
        #expect(try device.get(1, "DoorLock", "LockState") as? Int == 0)  // NotFullyLocked

        #expect(try device.ctl(#"{"op":"hardware-fault","current":[2,5]}"#).exitCode == 0)
        #expect(try device.get(0, "GeneralDiagnostics", "ActiveHardwareFaults") as? [Int] == [2, 5])

        #expect(try device.ctl(#"{"op":"identify","endpoint":1,"seconds":30}"#).exitCode == 0)
        #expect((try device.get(1, "Identify", "IdentifyTime") as? Int ?? 0) > 0)

        #expect(try device.ctl(#"{"op":"offline"}"#).answer["online"] as? Bool == false)
        #expect(try device.ctl(#"{"op":"online"}"#).answer["online"] as? Bool == true)

        // Uncommissioned, the basic window is open: another open is BUSY, a close revokes it.
        let busy = try device.ctl(#"{"op":"open-window","mode":"enhanced"}"#)
        #expect(busy.exitCode == 8 && (busy.answer["error"] as? String)?.contains("BUSY") == true)
        #expect(try device.ctl(#"{"op":"close-window"}"#).exitCode == 0)
        #expect(try device.get(0, "AdministratorCommissioning", "WindowStatus") as? Int == 0)
        let enhanced = try device.ctl(#"{"op":"open-window","mode":"enhanced","discriminator":1234}"#)
        #expect(enhanced.exitCode == 0)
        #expect(enhanced.answer["discriminator"] as? Int == 1234)
        #expect((enhanced.answer["manualCode"] as? String)?.count == 11)
        #expect(try device.get(0, "AdministratorCommissioning", "WindowStatus") as? Int == 1)  // enhanced
        #expect(try device.ctl(#"{"op":"close-window"}"#).exitCode == 0)
        let basic = try device.ctl(#"{"op":"open-window","mode":"basic","timeout":300}"#)
        #expect(basic.exitCode == 0 && basic.answer["passcode"] as? Int == 20_202_021)
        #expect(try device.get(0, "AdministratorCommissioning", "WindowStatus") as? Int == 2)  // basic
    }

    @Test("--app-pipe takes the SDK apps' commands and survives a reboot")
    func appPipeCommands() throws {
        let device = try ControlledProcess(["device", "--type", "door-lock"])
        #expect(
            try device.ctl(#"{"op":"set","endpoint":1,"cluster":"DoorLock","attribute":"LockState","value":1}"#)
                .exitCode == 0)
        try device.writePipe(#"{"Cmd":"SendDoorLockAlarm","Params":{"EndpointId":1,"AlarmCode":0}}"#)
        #expect(try device.eventually { try device.get(1, "DoorLock", "LockState") as? Int == 0 })
        try device.writePipe(#"{"Name":"HardwareFaultChange"}"#)
        #expect(
            try device.eventually {
                try device.get(0, "GeneralDiagnostics", "ActiveHardwareFaults") as? [Int] == [1, 2, 5, 8]
            })
        try device.writePipe(#"{"Name":"SoftwareWatchdogReset"}"#)
        #expect(try device.eventually { try device.get(0, "GeneralDiagnostics", "BootReason") as? Int == 3 })
        try device.writePipe(#"{"Cmd":"Lock","Params":{"OperationSource":7}}"#)
        #expect(try device.eventually { try device.get(1, "DoorLock", "LockState") as? Int == 1 })
    }

    @Test("--app-pipe presses a generic switch as the SDK's test harness does; a latch is refused")
    func appPipeSwitch() throws {
        let device = try ControlledProcess(["device", "--type", "generic-switch"])
        try device.writePipe(
            #"{"Name":"SimulateMultiPress","EndpointId":1,"ButtonId":1,"MultiPressPressedTimeMillis":100,"MultiPressReleasedTimeMillis":200,"MultiPressNumPresses":3}"#
        )
        // The button went down three times and came up three times (the device prints each change).
        func changes(to value: Int) -> Int {
            device.output.components(separatedBy: #""attribute":"CurrentPosition","#).dropFirst()
                .filter { $0.contains(#""value":\#(value)"#) }.count
        }
        #expect(device.eventually { changes(to: 1) == 3 && changes(to: 0) == 3 }, "\(device.output)")
        #expect(try device.ctl(#"{"op":"multi-press","count":4}"#).exitCode == 8)
        #expect(try device.ctl(#"{"op":"switch","position":1}"#).exitCode == 8)
        let pressed = try device.ctl(#"{"op":"press"}"#)
        #expect(pressed.exitCode == 0)
        #expect((pressed.answer["eventNumbers"] as? [Int])?.count == 3)  // InitialPress, ShortRelease, complete
        #expect(changes(to: 1) == 4)
    }

    @Test("a stale socket and FIFO are replaced; a regular file at either path is refused")
    func stalePathsAreReplaced() throws {
        let device = try ControlledProcess(["device", "--type", "on-off-plug"], stale: true)
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool == false)
        try device.writePipe(#"{"Name":"Onoff","onoff":1}"#)
        #expect(try device.eventually { try device.get(1, "OnOff", "OnOff") as? Bool == true })

        let file = device.directory + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        for option in ["--control", "--app-pipe"] {
            let refused = try ProcessRunner.runMatterEmu([
                "device", "--type", "on-off-plug", "--secured-device-port", "0", "--no-advertise", "--state-dir",
                device.directory + "/other", option, file,
            ])
            #expect(refused.exitCode == 2, "\(option): \(refused.stderr)")
            #expect(refused.stderr.contains("is not a"))
        }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }
}
