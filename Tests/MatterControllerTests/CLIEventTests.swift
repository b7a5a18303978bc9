import Foundation
import MatterClusters
import MatterCore
import MatterDevice
import MatterTestSupport
import Testing

extension CLIEndToEndTests {
    static func jsonLines(_ result: Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("doorlock read-event / subscribe-event / any read-event-by-id show LockOperation after lock-door")
    func lockEvents() async throws {
        let lock = try await device("lock", type: "door-lock")
        #expect(try await pair(lock, node: 9).exitCode == 0)
        let locked = try await Self.run(["doorlock", "lock-door", "9"] + state)
        #expect(locked.exitCode == 0, "\(locked.stderr)")

        let read = try await Self.run(["doorlock", "read-event", "lock-operation", "9", "1", "--json"] + state)
        #expect(read.exitCode == 0, "\(read.stderr)")
        let events = try Self.jsonLines(read)
        let event = try #require(events.last)
        #expect(event["event"] as? String == "lock-operation")
        #expect(event["priority"] as? String == "critical")
        let fields = try #require(event["fields"] as? [String: Any])
        #expect(fields["lockOperationType"] as? Int == 0)
        let number = try #require(event["eventNumber"] as? Int)
        #expect((event["timestamp"] as? [String: Any])?["type"] as? String == "system")

        let human = try await Self.run(["doorlock", "read-event", "lock-operation", "9", "1"] + state)
        #expect(human.stdout.contains("#\(number) doorlock lock-operation endpoint 1 critical"))
        #expect(human.stdout.contains("LockOperationType="))
        let filtered = try await Self.run(
            ["doorlock", "read-event", "lock-operation", "9", "1", "--event-min", "\(number + 1)"] + state)
        #expect(filtered.exitCode == 0)
        #expect(filtered.stdout.isEmpty)

        let byID = try await Self.run(
            ["any", "read-event-by-id", "0x0101", "0xFFFFFFFF", "9", "0xFFFF", "--json"] + state)
        #expect(byID.exitCode == 0, "\(byID.stderr)")
        #expect(try Self.jsonLines(byID).contains { $0["eventNumber"] as? Int == number })
        let unknown = try await Self.run(["doorlock", "read-event", "no-such-event", "9"] + state)
        #expect(unknown.exitCode == 2)

        // Whether the unlock lands in the priming report or after it, the stream shows it.
        async let subscribed = Self.run(
            [
                "doorlock", "subscribe-event", "lock-operation", "0", "5", "9", "1", "--count", "1", "--duration", "20",
                "--json",
            ] + state)
        let unlocked = try await Self.run(["doorlock", "unlock-door", "9"] + state)
        #expect(unlocked.exitCode == 0, "\(unlocked.stderr)")
        let stream = try await subscribed
        #expect(stream.exitCode == 0, "\(stream.stderr)")
        let streamed = try Self.jsonLines(stream)
        #expect(streamed.contains { ($0["fields"] as? [String: Any])?["lockOperationType"] as? Int == 1 })
        #expect(streamed.allSatisfy { $0["event"] as? String == "lock-operation" })
        await lock.stop()
    }
}
