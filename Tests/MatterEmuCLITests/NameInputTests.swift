import Foundation
import MatterTestSupport
import Testing

/// NodeLabel's 32-byte limit and the name character rule on every way a label comes in: `--name`, a
/// fleet configuration's names, the control plane (issue 35, cause 9; a controller's write is in
/// `BasicInformationTests`, the controller's own names in `NameRuleTests`).
@Suite struct NameInputTests {
    private func device(_ name: String) throws -> ProcessResult {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-name")
        return try ProcessRunner.runMatterEmu(
            ["device", "--secured-device-port", "0", "--no-advertise", "--state-dir", temporary.path, "--name", name],
            limit: .seconds(60))
    }

    @Test func deviceNameOverThirtyTwoBytesIsRefused() throws {
        // 5,000 characters (the issue's case) and 33 bytes of three-byte characters.
        for name in [String(repeating: "x", count: 5000), String(repeating: "€", count: 11)] {
            let result = try device(name)
            #expect(result.exitCode == 2, "\(result.stderr)")
            #expect(result.stderr.contains("a NodeLabel holds at most 32"), "\(result.stderr)")
        }
    }

    @Test(arguments: ["Desk\u{202E}pmal", "Desk\u{200B}lamp", "\u{2066}Desk"])
    func deviceNameWithFormatCharactersIsRefused(name: String) throws {
        let result = try device(name)
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("invisible format character"), "\(result.stderr)")
        // The refused name is echoed with the character escaped, never raw.
        #expect(!result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .format })
    }

    @Test func fleetNamesAreCheckedBeforeAnyDeviceStarts() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-name")
        // 29 characters + " 12": the twelfth device's label would be 32 + 1 bytes.
        let long = String(repeating: "k", count: 30)
        try temporary.write(
            #"{"groups":[{"type":"on-off-light","count":12,"name":"\#(long)"}],"basePort":0}"#, "long.json")
        let result = try ProcessRunner.runMatterEmu(
            ["fleet", "--config", temporary.file("long.json"), "--no-advertise", "--state-dir", temporary.path],
            limit: .seconds(60))
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("group 0 \"name\": the label \"\(long) 12\" is 33 bytes"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: temporary.file("fleet.sqlite")))

        try temporary.write(
            #"{"groups":[{"type":"on-off-light","count":1,"name":"a\u200bb"}],"basePort":0}"#, "zw.json")
        let zeroWidth = try ProcessRunner.runMatterEmu(
            ["fleet", "--config", temporary.file("zw.json"), "--no-advertise", "--state-dir", temporary.path],
            limit: .seconds(60))
        #expect(zeroWidth.exitCode == 2, "\(zeroWidth.stderr)")
        #expect(zeroWidth.stderr.contains("U+200B"), "\(zeroWidth.stderr)")
    }

    @Test func controlPlaneSetOfNodeLabelIsChecked() throws {
        let device = try ControlledProcess(["device", "--type", "on-off-light"])
        for (label, reason) in [
            (String(repeating: "y", count: 33), "is 33 bytes"), ("Lamp\u{202E}", "U+202E"), ("La\u{200C}mp", "U+200C"),
        ] {
            let escaped = String(data: try JSONSerialization.data(withJSONObject: [label]), encoding: .utf8) ?? ""
            let value = String(escaped.dropFirst().dropLast())
            let (exitCode, answer) = try device.ctl(
                #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":\#(value)}"#)
            #expect(exitCode == 8)
            let error = answer["error"] as? String ?? ""
            #expect(error.contains("CONSTRAINT_ERROR") && error.contains(reason), "\(error)")
        }
        #expect(try device.get(0, "BasicInformation", "NodeLabel") as? String == "")
        let exact = String(repeating: "é", count: 16)
        let (exitCode, _) = try device.ctl(
            #"{"op":"set","endpoint":0,"cluster":"BasicInformation","attribute":"NodeLabel","value":"\#(exact)"}"#)
        #expect(exitCode == 0)
    }
}

/// Wrong exit codes and unclear messages (issue 35, cause 11).
@Suite struct ExitCodeMessageTests {
    @Test(arguments: ["device", "fleet"])
    func stateDirOnARegularFileIsAStorageErrorThatSaysSo(command: String) throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-state")
        try temporary.write("not a directory", "file")
        let extra = command == "fleet" ? ["--count", "1", "--base-port", "0"] : ["--secured-device-port", "0"]
        let result = try ProcessRunner.runMatterEmu(
            [command, "--no-advertise", "--state-dir", temporary.file("file")] + extra, limit: .seconds(60))
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("--state-dir: \(temporary.file("file")) is not a directory"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        #expect(try String(contentsOfFile: temporary.file("file"), encoding: .utf8) == "not a directory")
    }

    /// Not the repro: a regular file further up the `--KVS` path.
    @Test func aFileInTheKVSPathIsNamed() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-state")
        try temporary.write("x", "file")
        let result = try ProcessRunner.runMatterEmu(
            ["device", "--no-advertise", "--secured-device-port", "0", "--KVS", temporary.file("file/a/b.sqlite")],
            limit: .seconds(60))
        #expect(result.exitCode == 9, "\(result.stderr)")
        #expect(result.stderr.contains("--KVS: \(temporary.file("file")) is not a directory"), "\(result.stderr)")
    }

    @Test func discoverTimeoutWantsWholeSeconds() throws {
        let result = try ProcessRunner.runMatterEmu(["discover", "--timeout", "1.5"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--timeout expects whole seconds, 1...86400, got '1.5'"), "\(result.stderr)")
    }
}
