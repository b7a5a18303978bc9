import Foundation
import MatterTestSupport
import Testing

/// `matter-emu device` and `fleet`: usage errors exit 2 before anything starts; a device started on
/// a free port prints its onboarding document (JSON) and stops cleanly on SIGTERM.
@Suite("matter-emu device|fleet")
struct DeviceCommandTests {
    @Test(arguments: [
        (["device", "--type", "toaster"], "unknown device type"),
        (["device", "--passcode", "11111111"], "passcode 11111111 is not allowed"),
        (["device", "--discriminator", "5000"], "out of range"),
        (["device", "--pbkdf-iterations", "10"], "1000...100000"),
        (["device", "--drop", "2"], "probability"),
        (["fleet"], "--count"),
        (["fleet", "--count", "3", "--base-port", "65535"], "leaves no room"),
        (["device", "--interface", "no-such-if0"], "no network interface named \"no-such-if0\""),
        (
            ["device", "--type", "temperature-sensor", "--script", "TemperatureMeasurement.MeasuredValue=sin(1)"],
            "--script TemperatureMeasurement.MeasuredValue=sin(1): unknown script \"sin\""
        ),
        (
            [
                "device", "--type", "temperature-sensor", "--secured-device-port", "0", "--script",
                "TemperatureMeasurement.MeasuredValue=sine(min=0,max=40000,period=60)",
            ],
            "reaches 40000, above its maximum 32767"
        ),
        (
            [
                "device", "--type", "temperature-sensor", "--script",
                "TemperatureMeasurement.MeasuredValue=constant(1)",
                "--script", "1/TemperatureMeasurement.MeasuredValue=constant(2)",
            ],
            "two scripts move 1/TemperatureMeasurement.MeasuredValue"
        ),
        (["device", "--time-scale", "0"], "--time-scale must be a number 0.1...1000"),
        (["device", "--type", "on-off-light", "--bridged", "on-off-light"], "need --type aggregator (or bridge)"),
        (["device", "--type", "bridge", "--bridged", "toaster:2"], "toaster"),
        (["device", "--type", "bridge", "--bridged", "on-off-light:0"], "COUNT must be 1...997"),
        (["device", "--type", "bridge", "--bridged", "on-off-light:900,dimmable-light:100"], "at most 997"),
        (["device", "--type", "bridge", "--bridged", "bridge"], "not another bridge"),
        (
            [
                "fleet", "--count", "2", "--type", "on-off-light", "--base-port", "0", "--script",
                "OnOff.OnOff=sine(min=0,max=1,period=1)",
            ],
            "takes true or false, the script sets numbers"
        ),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let result = try ProcessRunner.runMatterEmu(arguments + ["--state-dir", directory, "--no-advertise"])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a second device process on a state file in use exits 9 naming the holder, and touches nothing")
    func stateFileHasOneOwner() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let kvs = directory + "/shared.sqlite"
        let (first, started) = try Self.startDevice(["--secured-device-port", "0", "--KVS", kvs], directory: directory)
        defer { first.stop() }
        #expect(started["event"] as? String == "started")
        let before = try Data(contentsOf: URL(fileURLWithPath: kvs))

        for extra in [[], ["--factory-reset"]] {
            let second = try ProcessRunner.runMatterEmu(
                ["device", "--secured-device-port", "0", "--no-advertise", "--KVS", kvs] + extra)
            #expect(second.exitCode == 9, "\(second.stderr)")
            #expect(
                second.stderr.contains("in use by another process (pid \(first.pid)"),
                "\(second.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: kvs)) == before)
        #expect(first.isRunning)

        // Once the first is gone, the file is free again.
        first.stop()
        let (again, _) = try Self.startDevice(["--secured-device-port", "0", "--KVS", kvs], directory: directory)
        #expect(again.isRunning)
        let ended = again.stop()
        #expect(ended?.succeeded == true, "\(String(describing: ended))")
    }

    @Test func deviceStartsPrintsItsCodesAndStopsOnSIGTERM() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        // The first line is the onboarding document.
        let (process, document) = try Self.startDevice(
            ["--type", "on-off-plug", "--secured-device-port", "0"], directory: directory)
        let ended = process.stop()
        #expect(document["event"] as? String == "started")
        #expect((document["qrCode"] as? String)?.hasPrefix("MT:") == true)
        #expect(document["manualCode"] as? String == "34970112332")
        #expect(document["commissionable"] as? Bool == true)
        #expect(ended?.succeeded == true, "\(String(describing: ended))")
        #expect(FileManager.default.fileExists(atPath: directory + "/device-0.sqlite"))
    }

    /// Starts `device --json` on a free port; returns the process and the started document (its first
    /// line; a hang guard of a minute).
    static func startDevice(_ arguments: [String], directory: String) throws -> (RunningProcess, [String: Any]) {
        let process = try RunningProcess(
            [ProcessRunner.matterEmu.path, "device", "--no-advertise", "--state-dir", directory, "--json"] + arguments)
        let line = try #require(process.stdoutLine(within: .seconds(60)) { _ in true }, "\(process.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (process, document)
    }

    /// An on-off plug started in `directory/device` and commissioned as node 1 by address from the
    /// state directory `directory/controller`: the device, its port and that state directory.
    static func commissionedPlug(in directory: String) throws -> (RunningProcess, port: Int, state: String) {
        let (device, started) = try startDevice(
            ["--type", "on-off-plug", "--secured-device-port", "0"], directory: directory + "/device")
        let port = try #require(started["port"] as? Int)
        let state = directory + "/controller"
        let paired = try ProcessRunner.runMatterEmu([
            "pairing", "already-discovered", "1", "20202021", "127.0.0.1", String(port), "--state-dir", state,
        ])
        #expect(paired.exitCode == 0, "\(paired.stderr)")
        return (device, port, state)
    }

    @Test("--script with --time-scale: a sensor follows its steps ten times faster, each value a --json line")
    func scriptedSensor() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let (device, _) = try Self.startDevice(
            [
                "--type", "temperature-sensor", "--secured-device-port", "0", "--time-scale", "10", "--script",
                "TemperatureMeasurement.MeasuredValue=steps(0:1800,10s:1900,20s:2000)",
            ], directory: temporary.path)
        defer { device.stop() }
        let last = device.jsonLine(within: .seconds(30)) {
            $0["attribute"] as? String == "MeasuredValue" && $0["value"] as? Int == 2000
        }
        #expect(last != nil, "\(device.jsonLines) \(device.stderr)")
        let values = device.jsonLines.filter { $0["attribute"] as? String == "MeasuredValue" }.compactMap {
            $0["value"] as? Int
        }
        #expect(values.suffix(2) == [1900, 2000], "\(values)")
    }

    @Test("a port already in use is a usage error (exit 2) that says so")
    func portInUse() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let (first, started) = try Self.startDevice(["--secured-device-port", "0"], directory: directory + "/a")
        defer { first.stop() }
        let port = try #require(started["port"] as? Int)
        let second = try ProcessRunner.runMatterEmu([
            "device", "--secured-device-port", String(port), "--no-advertise", "--state-dir", directory + "/b",
        ])
        #expect(second.exitCode == 2, "\(second.stderr)")
        #expect(second.stderr.contains("UDP port \(port) is already in use"), "\(second.stderr)")
    }

    @Test("device --json events are fields: commissioned by the CLI, then switched on")
    func jsonEventsAreFields() throws {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cli")
        let directory = temporary.path
        let (device, port, state) = try Self.commissionedPlug(in: directory)
        let on = try ProcessRunner.runMatterEmu([
            "onoff", "on", "1", "--address", "127.0.0.1:\(port)", "--state-dir", state,
        ])
        #expect(on.exitCode == 0, "\(on.stderr)")
        device.stop()
        let events = device.jsonLines.dropFirst()  // after the started document
        let onOff = events.first { $0["event"] as? String == "attribute" && $0["attribute"] as? String == "OnOff" }
        #expect(onOff?["endpoint"] as? Int == 1)
        #expect(onOff?["cluster"] as? String == "OnOff")
        #expect(onOff?["value"] as? Bool == true)
        #expect(events.contains { $0["event"] as? String == "pase-established" && $0["peer"] is String })
        #expect(events.contains { $0["event"] as? String == "fabrics" && ($0["fabricIndexes"] as? [Int]) == [1] })
        // No event is a sentence any more.
        #expect(events.allSatisfy { ($0["event"] as? String)?.contains(" ") == false })
    }
}
