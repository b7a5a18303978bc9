import Foundation
import Glibc
import MatterDevice
import MatterTestSupport
import Synchronization
import Testing

/// The control socket's bounds (issue 35, cause 5): a line over the limit is discarded whole and
/// answered, the connection keeps working; clients over the cap are answered "busy"; a silent client
/// is disconnected. In-process, with a handler that records every line it was given.
@Suite("Control socket: line size, client cap, idle time")
struct ControlSocketLimitTests {
    /// Every line the socket handed to its handler.
    final class Received: Sendable {
        let lines = Mutex<[String]>([])
    }

    private func server(_ limits: ControlSocket.Limits) throws -> (ControlSocket, Received, TemporaryDirectory) {
        let temporary = try TemporaryDirectory(prefix: "matter-emu-cs")
        let received = Received()
        let socket = try ControlSocket(path: temporary.file("c.sock"), limits: limits) { line in
            received.lines.withLock { $0.append(line) }
            return #"{"ok":true}"#
        }
        return (socket, received, temporary)
    }

    @Test("an oversized line whose tail is a valid request runs nothing; the next line is answered")
    func oversizedLineIsDiscardedWhole() async throws {
        var limits = ControlSocket.Limits()
        limits.maxLineBytes = 1024
        let (socket, received, temporary) = try server(limits)
        defer { socket.close() }
        _ = temporary
        let client = try UnixSocketClient(socket.path)
        defer { client.close() }
        let tail = #"{"op":"set","endpoint":1,"cluster":"OnOff","attribute":"OnOff","value":true}"#
        try client.send(String(repeating: " ", count: 1024) + tail + "\n")
        let refusal = try await client.line()
        #expect(refusal.contains("over the 1024-byte limit"), "\(refusal)")
        #expect(refusal.contains(#""ok":false"#))
        try client.send(#"{"op":"devices"}"# + "\n")
        #expect(try await client.line() == #"{"ok":true}"#)
        #expect(received.lines.withLock { $0 } == [#"{"op":"devices"}"#])
    }

    @Test("a line of exactly the limit is taken; a longer one sent in many small writes is not")
    func limitIsExactAndChunkingDoesNotMatter() async throws {
        var limits = ControlSocket.Limits()
        limits.maxLineBytes = 64
        let (socket, received, temporary) = try server(limits)
        defer { socket.close() }
        _ = temporary
        let client = try UnixSocketClient(socket.path)
        defer { client.close() }
        let exact = #"{"op":"get","x":""# + String(repeating: "a", count: 64 - 19) + #""}"#
        #expect(exact.utf8.count == 64)
        try client.send(exact + "\n")
        #expect(try await client.line() == #"{"ok":true}"#)
        let long = exact + "b"
        for chunk in stride(from: 0, to: long.utf8.count, by: 7) {
            let bytes = Array(long.utf8)[chunk..<min(chunk + 7, long.utf8.count)]
            try client.send(String(decoding: bytes, as: UTF8.self))
        }
        try client.send("\n")
        #expect(try await client.line().contains("a request of 65 bytes is over the 64-byte limit"))
        #expect(received.lines.withLock { $0 } == [exact])
    }

    @Test("clients over the cap are answered busy; a freed slot serves again")
    func clientCap() async throws {
        var limits = ControlSocket.Limits()
        limits.maxClients = 2
        let (socket, _, temporary) = try server(limits)
        defer { socket.close() }
        _ = temporary
        let first = try UnixSocketClient(socket.path)
        let second = try UnixSocketClient(socket.path)
        defer { second.close() }
        // Both are served (each answers), so both hold a slot.
        for client in [first, second] {
            try client.send(#"{"op":"devices"}"# + "\n")
            #expect(try await client.line() == #"{"ok":true}"#)
        }
        let third = try UnixSocketClient(socket.path)
        defer { third.close() }
        #expect(try await third.line().contains("busy: 2 clients are connected"))
        first.close()
        // Until the server has taken in the first client's close, a new client is still answered busy and its
        // connection closed: its send may then fail (EPIPE), which is "not yet", not a failure.
        let served = await eventually(within: .seconds(10)) {
            do {
                let next = try UnixSocketClient(socket.path)
                defer { next.close() }
                try next.send(#"{"op":"devices"}"# + "\n")
                return try await next.line() == #"{"ok":true}"#
            } catch {
                return false
            }
        }
        #expect(served)
    }

    @Test("a client that sends nothing for the idle time is disconnected")
    func idleClientIsDisconnected() async throws {
        var limits = ControlSocket.Limits()
        limits.idleSeconds = 1
        let (socket, received, temporary) = try server(limits)
        defer { socket.close() }
        _ = temporary
        let client = try UnixSocketClient(socket.path)
        defer { client.close() }
        #expect(try await client.readToEnd() == "")
        #expect(received.lines.withLock { $0 }.isEmpty)
    }
}
