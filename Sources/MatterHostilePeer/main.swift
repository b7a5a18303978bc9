// matter-emu-hostile: a hostile peer for scripts/test-hostile.sh. Sends a device a seeded mix of random
// and mutated datagrams, valid headers with garbage payloads, replays and half-open handshakes, then
// prints what it sent and what the device should have done with it. Only for private test networks.
import Dispatch
import Foundation
import MatterCore
import MatterTransport

let options: HostileOptions
do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.contains("--help") || arguments.contains("-h") {
        print(HostileOptions.usage)
        exit(0)
    }
    options = try HostileOptions(arguments)
} catch {
    FileHandle.standardError.write(Data("matter-emu-hostile: \(error)\n\n\(HostileOptions.usage)\n".utf8))
    exit(2)
}

let sender: HostileSender
do {
    sender = try HostileSender(halfOpenSockets: options.halfOpenSockets)
} catch {
    FileHandle.standardError.write(Data("matter-emu-hostile: \(error)\n".utf8))
    exit(1)
}

var mix = HostileMix(seed: options.seed, weights: options.weights, halfOpenSockets: options.halfOpenSockets)
var sentByKind: [HostileKind: Int] = [:]
var expected: [ExpectedOutcome: Int] = [:]
var sendErrors = 0
var unit = 0
let start = DispatchTime.now().uptimeNanoseconds
let interval = options.rate > 0 ? 1_000_000_000 / UInt64(options.rate) : 0
for index in 0..<options.count {
    if interval > 0 {
        let due = start + UInt64(index) * interval
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now + 100_000 { usleep(UInt32((due - now) / 1000)) }
    }
    let datagram = mix.next()
    // Alternate targets per datagram, except within a burst of copies (they share one session).
    if datagram.expected != .droppedDuplicate { unit += 1 }
    let target = options.targets[unit % options.targets.count]
    if sender.send(datagram.bytes, socket: datagram.socket, to: target) {
        sentByKind[datagram.kind, default: 0] += 1
        expected[datagram.expected, default: 0] += 1
    } else {
        sendErrors += 1
    }
    if options.count >= 10, index % (options.count / 10) == 0, index > 0 {
        FileHandle.standardError.write(Data("matter-emu-hostile: \(index) sent\n".utf8))
    }
}
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
usleep(UInt32(options.linger * 1_000_000))
sender.close()

let sent = sentByKind.values.reduce(0, +)
let rate = seconds > 0 ? Int((Double(sent) / seconds).rounded()) : sent
let kinds = HostileKind.allCases.map { ($0.rawValue, sentByKind[$0] ?? 0) }
let outcomes = ExpectedOutcome.allCases.map { ($0.rawValue, expected[$0] ?? 0) }
if options.json {
    func object(_ pairs: [(String, Int)]) -> String {
        "{" + pairs.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
    let targets = options.targets.map { "\"\($0)\"" }.joined(separator: ",")
    print(
        "{\"sent\":\(sent),\"seconds\":\(String(format: "%.2f", seconds)),\"rate\":\(rate),\"targets\":[\(targets)],"
            + "\"seed\":\(options.seed),\"kinds\":\(object(kinds)),\"expected\":\(object(outcomes)),"
            + "\"replies\":\(sender.replies),\"sendErrors\":\(sendErrors)}")
} else {
    func list(_ pairs: [(String, Int)]) -> String { pairs.map { "\($0.0) \($0.1)" }.joined(separator: ", ") }
    print(
        "hostile: sent \(sent) datagrams in \(String(format: "%.1f", seconds)) s (\(rate)/s) to "
            + options.targets.map(\.description).joined(separator: " and ") + " (seed \(options.seed)); "
            + "kinds: \(list(kinds)); expected: \(list(outcomes)); device answered \(sender.replies); "
            + "send errors \(sendErrors)")
}
exit(sendErrors == 0 ? 0 : 1)
