import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func fmt(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    let scaled = (value * 1000).rounded() / 1000
    return String(scaled)
}

/// Samples of one measurement, in milliseconds.
struct Samples {
    private(set) var values: [Double] = []
    private var sorted = true

    mutating func add(_ value: Double) {
        values.append(value)
        sorted = false
    }

    mutating func add(_ duration: Duration) { add(milliseconds(duration)) }

    var count: Int { values.count }

    func p(_ fraction: Double) -> Double { percentile(values.sorted(), fraction) }
}

/// Prints one figure for the results table of docs/BENCHMARKS.md. scripts/bench.sh reads these lines
/// (tab separated: `figure`, id, label, median, tail, tail name, unit) and adds the aim of the id.
func figure(
    _ id: String, _ label: String, median: Double, tail: Double? = nil, tailName: String = "p95",
    unit: String
) {
    let tailText = tail.map(fmt) ?? "-"
    emit(["figure", id, label, fmt(median), tailText, tail == nil ? "-" : tailName, unit].joined(separator: "\t"))
}

/// A human-readable line of the raw results.
func report(_ line: String) { emit(line) }

/// Writes one line to standard output at once (unbuffered, so a reader of a pipe sees it now).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Wall-clock time (seconds since 1970), comparable across processes and network namespaces of this
/// machine: the SDK's log timestamps and the device's datagram times are matched on it.
func unixTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time this process has used so far, seconds.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Resident memory of this process, kB (VmRSS).
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// `--name value` options after the subcommand.
struct Options {
    private var values: [String: String] = [:]
    private(set) var positional: [String] = []

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument.hasPrefix("--"), let value = rest.popFirst() {
                values[String(argument.dropFirst(2))] = value
            } else {
                positional.append(argument)
            }
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }

    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw BenchError.usage("--\(name) is required") }
        return value
    }
}

enum BenchError: Error, CustomStringConvertible {
    case badAddress(String)
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .badAddress(let host): "bad address \(host)"
        case .usage(let text): "usage: \(text)"
        case .failed(let text): text
        }
    }
}

/// Waits for SIGINT or SIGTERM.
func waitForTermination() async {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let queue = DispatchQueue(label: "bench-signals")
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let pending = PendingContinuation(continuation)
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { pending.resume() }
            source.resume()
            SignalSources.keep(source)
        }
    }
}

/// Keeps the signal sources alive for the life of the process.
enum SignalSources {
    nonisolated(unsafe) private static var kept: [any DispatchSourceSignal] = []
    /// Called once per source, before any signal can arrive.
    static func keep(_ source: any DispatchSourceSignal) { kept.append(source) }
}

/// A continuation resumed at most once, from any thread.
final class PendingContinuation: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }
    func resume() { continuation.withLock { $0.take() }?.resume() }
}

/// Writes `object` as JSON to `path`.
func writeJSON(_ object: Any, to path: String) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    try data.write(to: URL(fileURLWithPath: path))
}

func readJSON(_ path: String) throws -> Any {
    guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.failed("cannot read \(path)") }
    return try JSONSerialization.jsonObject(with: data)
}
