import Foundation
import MatterTestSupport
import Testing

/// An app-pipe line over the limit is discarded whole, however it arrives, and the pipe goes on with
/// the next command (issue 35, cause 10).
@Suite struct AppPipeLimitTests {
    private let limit = 1 << 20

    /// Writes `chunks` to the pipe in one open, one write per chunk, then closes it.
    private func write(_ device: ControlledProcess, _ chunks: [String]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: device.pipe))
        for chunk in chunks { handle.write(Data(chunk.utf8)) }
        try handle.close()
    }

    @Test func anOversizedLineWhoseTailIsACommandRunsNothing() throws {
        let device = try ControlledProcess(["device", "--type", "dimmable-light"])
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool == false)
        // Over a megabyte of padding, then a valid command: before, the first megabyte was dropped and
        // the tail (64 KiB of spaces and the command) ran, switching the light on.
        try write(
            device, [String(repeating: " ", count: limit + 65536) + #"{"Name":"Onoff","onoff":1}"# + "\n"])
        try device.writePipe(#"{"Name":"Level","level":77}"#)
        #expect(try device.eventually { try device.get(1, "LevelControl", "CurrentLevel") as? Int == 77 })
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool == false)
        #expect(device.stderr.contains("over the 1048576-byte limit: discarded, nothing of it ran"))
    }

    @Test func anOversizedLastLineWithoutNewlineInSmallWritesIsDiscardedToo() throws {
        let device = try ControlledProcess(["device", "--type", "dimmable-light"])
        // One open-write-close whose only line has no newline (the SDK apps take it as a command) and
        // arrives in 64 KiB writes, its valid command split across the last two.
        let text = String(repeating: "x", count: limit - 10) + #"{"Name":"Onoff","onoff":1}"#
        let bytes = Array(text.utf8)
        try write(
            device,
            stride(from: 0, to: bytes.count, by: 65536).map {
                String(decoding: bytes[$0..<min($0 + 65536, bytes.count)], as: UTF8.self)
            })
        // The line ends when its writer closes; the next writer waits for that (a writer arriving first
        // would continue the same line).
        #expect(device.eventually { device.stderr.contains("a command of \(bytes.count) bytes is over the") })
        try device.writePipe(#"{"Name":"Level","level":33}"#)
        #expect(try device.eventually { try device.get(1, "LevelControl", "CurrentLevel") as? Int == 33 })
        #expect(try device.get(1, "OnOff", "OnOff") as? Bool == false)
    }
}
