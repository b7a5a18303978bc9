import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV
import MatterTestSupport
import MatterTransport
import Testing

@Suite("Malformed IM requests get a status, never a crash")
struct MalformedRequestTests {
    @Test(arguments: [
        (InteractionOpcode.readRequest, ""),
        (.readRequest, "15"),
        (.readRequest, "16 18"),
        (.readRequest, "15 3600 17 240200 18 18 24ff0c 18"),  // IsFabricFiltered missing
        (.subscribeRequest, "15 2800 240100 18"),
        (.writeRequest, "15 2800 2801 24ff0c 18"),
        (.writeRequest, "15 2800 2801 3602 15 3701 240201 18 18 18 24ff0c 18"),  // AttributeDataIB without Data
        (.invokeRequest, "15 2800 2801 3602 18 24ff0c 18"),  // no command
        (.invokeRequest, "15 2800 2801 3602 15 3700 240001 18 18 18 24ff0c 18"),  // path without cluster
        (.timedRequest, "15 18"),
        (InteractionOpcode(rawValue: 0x7F), "15 18"),
        (.subscribeResponse, "15 18"),
    ])
    func answeredWithInvalidAction(opcode: InteractionOpcode, payload: String) async throws {
        let h = await Harness.make()
        let reply = try await h.raw(opcode, hex(payload))
        #expect(reply.opcode == InteractionOpcode.statusResponse.rawValue)
        #expect(try StatusResponseMessage(decoding: reply.payload).status == .invalidAction)
        await h.stop()
    }

    @Test func randomBytesNeverCrashTheServer() async throws {
        let h = await Harness.make()
        var random = SeededRandom(seed: 99)
        let opcodes: [InteractionOpcode] = [
            .readRequest, .subscribeRequest, .writeRequest, .invokeRequest, .timedRequest,
        ]
        for round in 0..<60 {
            let length = Int(random.next() % 40)
            var payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Half the rounds start like a structure, to get past the first byte.
            if round % 2 == 0, !payload.isEmpty { payload[0] = 0x15 }
            let opcode = opcodes[round % opcodes.count]
            let reply = try await h.raw(opcode, payload)
            #expect(reply.opcode == InteractionOpcode.statusResponse.rawValue, "round \(round)")
        }
        // Still serving.
        let result = try await h.client.read(
            [AttributePathIB(ConcreteAttributePath(1, .onOff, .OnOff.onOff))],
            session: h.controllerSession)
        #expect(result.attributes.first?.value == .bool(false))
        await h.stop()
    }
}
