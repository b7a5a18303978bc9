import Foundation
import MatterDevice
import MatterTestSupport
import Synchronization
import Testing

/// The control plane's `invoke`: a cluster's command run on the device itself, through its handler.
@Suite("Control-plane invoke")
struct ControlPlaneInvokeTests {
    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("a command with a response answers its fields; a refused one says why and changes nothing")
    func responseAndRefusals() async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace, type: "laundry-washer")
        let recorded = Recorded()
        device.onDeviceEvent { event in
            if case .clusterEvent = event { recorded.append(event.description) }
        }
        let start = try Self.object(
            await device.control(#"{"op":"invoke","endpoint":1,"cluster":"OperationalState","command":"Start"}"#))
        #expect(start["ok"] as? Bool == true, "\(start)")
        let response = try #require(start["response"] as? [String: Any])
        #expect(response["command"] as? String == "OperationalCommandResponse")
        let fields = try #require(response["fields"] as? [String: Any])
        #expect((fields["commandResponseState"] as? [String: Any])?["errorStateID"] as? Int == 0)
        let state = try Self.object(
            await device.control(
                #"{"op":"get","endpoint":1,"cluster":"OperationalState","attribute":"OperationalState"}"#))
        #expect(state["value"] as? Int == 1)  // Running

        let refusals: [(String, String)] = [
            (#"{"op":"invoke","endpoint":1,"cluster":"OperationalState","command":"Fly"}"#, "defines no command Fly"),
            (#"{"op":"invoke","endpoint":1,"cluster":"OnOff","command":"On"}"#, "endpoint 1 has no OnOff cluster"),
            (
                #"{"op":"invoke","endpoint":1,"cluster":"OperationalState","command":"Start","fields":[1]}"#,
                "\"fields\" must be a JSON object"
            ),
            (#"{"op":"invoke","endpoint":1,"cluster":"OperationalState"}"#, "\"command\" must be a command name or ID"),
        ]
        for (request, message) in refusals {
            let answer = try Self.object(await device.control(request))
            #expect(answer["ok"] as? Bool == false)
            #expect((answer["error"] as? String)?.contains(message) == true, "\(request): \(answer)")
        }
        let stillRunning = try Self.object(
            await device.control(
                #"{"op":"get","endpoint":1,"cluster":"OperationalState","attribute":"OperationalState"}"#))
        #expect(stillRunning["value"] as? Int == 1)

        // Events the cluster records reach the device's event sink (and so --json and the dashboard).
        let stop = try Self.object(
            await device.control(#"{"op":"invoke","endpoint":1,"cluster":"OperationalState","command":"Stop"}"#))
        #expect(stop["ok"] as? Bool == true, "\(stop)")
        let emitted = await eventually(within: .seconds(5)) {
            recorded.lines.contains { $0.contains("OperationalState.OperationCompletion") }
        }
        #expect(emitted, "\(recorded.lines)")
        await device.stop()
    }

    @Test("get serves the global attributes as a read does; they cannot be set")
    func globals() async throws {
        let workspace = try TemporaryDirectory()
        let device = try await DeviceCommissioningTests.device(workspace, type: "laundry-washer")
        func get(_ attribute: String) async throws -> [String: Any] {
            try Self.object(
                await device.control(
                    #"{"op":"get","endpoint":1,"cluster":"OperationalState","attribute":"\#(attribute)"}"#))
        }
        #expect(try await get("ClusterRevision")["value"] is Int)
        #expect(try await get("FeatureMap")["value"] as? Int == 0)
        let accepted = try #require(try await get("AcceptedCommandList")["value"] as? [Int])
        #expect(Set(accepted) == [0, 1, 2, 3])  // Pause, Stop, Start, Resume
        #expect(try await get("GeneratedCommandList")["value"] as? [Int] == [4])
        let attributes = try #require(try await get("AttributeList")["value"] as? [Int])
        #expect(attributes.contains(0xFFFB) && attributes.contains(0xFFFC) && attributes.contains(4))
        let set = try Self.object(
            await device.control(
                #"{"op":"set","endpoint":1,"cluster":"OperationalState","attribute":"FeatureMap","value":1}"#))
        #expect(set["ok"] as? Bool == false, "\(set)")
        #expect(try await get("FeatureMap")["value"] as? Int == 0)
        await device.stop()
    }

    /// Lines the device's sink received, from the node's queue.
    final class Recorded: Sendable {
        private let state = Mutex([String]())
        func append(_ line: String) { state.withLock { $0.append(line) } }
        var lines: [String] { state.withLock { $0 } }
    }
}
