import Foundation
import MatterClusters
import MatterCore
import MatterDevice
import MatterTestSupport
import Testing

extension CLIEndToEndTests {
    /// A door lock behind a ``DeviceHost``, as `matter-emu device --control` runs one.
    func hostedLock(_ name: String) async throws -> DeviceHost {
        var configuration = VirtualDeviceConfiguration(
            deviceType: "door-lock", storagePath: devices.path + "/\(name).sqlite",
            pkiDirectory: TestPaths.pkiDirectory)
        configuration.port = 0
        configuration.storageNamespace = name
        configuration.advertise = false
        return try await DeviceHost.start(configuration)
    }

    @Test("our CLI reads and subscribes to the control plane's events: DoorLockAlarm, then StartUp and BootReason")
    func controlPlaneEvents() async throws {
        let host = try await hostedLock("jammed")
        #expect(try await pair(host.device, node: 11).exitCode == 0)

        // Subscribed first, the jam arrives on the stream (or in its priming report).
        async let subscribed = Self.run(
            [
                "doorlock", "subscribe-event", "door-lock-alarm", "0", "5", "11", "1", "--count", "1", "--duration",
                "20", "--json",
            ] + state)
        let jam = await host.control(#"{"op":"jam","endpoint":1}"#)
        #expect(jam.contains(#""ok":true"#), "\(jam)")
        let stream = try await subscribed
        #expect(stream.exitCode == 0, "\(stream.stderr)")
        let alarms = try Self.jsonLines(stream)
        #expect(alarms.contains { ($0["fields"] as? [String: Any])?["alarmCode"] as? Int == 0 })

        let read = try await Self.run(["doorlock", "read-event", "door-lock-alarm", "11", "1", "--json"] + state)
        #expect(read.exitCode == 0, "\(read.stderr)")
        let alarm = try #require(try Self.jsonLines(read).last)
        #expect(alarm["priority"] as? String == "critical")
        let alarmNumber = try #require(alarm["eventNumber"] as? Int)

        let reboot = await host.control(#"{"op":"reboot"}"#)
        #expect(reboot.contains(#""bootReason":"SoftwareReset""#), "\(reboot)")
        let reason = try await Self.run(
            ["generaldiagnostics", "read-event", "boot-reason", "11", "0", "--json"] + state)
        #expect(reason.exitCode == 0, "\(reason.stderr)")
        let boots = try Self.jsonLines(reason)
        // The event log lives in memory (as the SDK's): the new boot has its own BootReason, SoftwareReset
        // (6), numbered above the last boot's events.
        #expect(boots.compactMap { ($0["fields"] as? [String: Any])?["bootReason"] as? Int } == [6])
        #expect((boots.last?["eventNumber"] as? Int ?? 0) > alarmNumber)
        let basic = try await Self.run(
            ["any", "read-event-by-id", "0x0028", "0xFFFFFFFF", "11", "0", "--json"] + state)
        let names = try Self.jsonLines(basic).compactMap { $0["event"] as? String }
        #expect(names == ["start-up"], "\(basic.stdout) \(basic.stderr)")
        await host.stop()
    }
}
