import Foundation
import MatterTestSupport

/// One node line of `matter-dnssd-probe browse`: `KIND NAME host=H port=P KEY=VALUE... addresses=A,B`.
struct ProbeNode: Equatable {
    let kind: String
    let instance: String
    let fields: [String: String]

    init?(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2, words[0] == "commissionable" || words[0] == "operational" else { return nil }
        kind = words[0]
        instance = words[1]
        var fields: [String: String] = [:]
        for word in words.dropFirst(2) {
            guard let equals = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        self.fields = fields
    }

    /// `addresses=` split at commas (empty for `-`).
    var addresses: [String] {
        guard let list = fields["addresses"], list != "-" else { return [] }
        return list.split(separator: ",").map(String.init)
    }
}

/// The whole output of one `matter-dnssd-probe browse`: its node lines and its closing `found N`.
struct ProbeBrowse {
    let exitCode: Int32
    let nodes: [ProbeNode]
    let found: Int?
    let text: String

    init(_ result: ProcessResult) {
        exitCode = result.exitCode
        text = result.stdout + result.stderr
        nodes = result.lines.compactMap(ProbeNode.init)
        found = result.lines.last { $0.hasPrefix("found ") }.flatMap { Int($0.dropFirst("found ".count)) }
    }

    var instances: [String] { nodes.map(\.instance) }

    /// Exactly `expected` are listed (each once, nothing else) and `found` agrees.
    func lists(exactly expected: Set<String>) -> Bool {
        exitCode == 0 && Set(instances) == expected && instances.count == expected.count && found == expected.count
    }

    func node(_ instance: String) -> ProbeNode? { nodes.first { $0.instance == instance } }
}

/// A `matter-dnssd-probe publish` running in a host: its event lines and its stdin commands.
struct ProbePublisher {
    let process: RunningProcess

    /// Waits for `ready` (every record established, raw records' probes passed).
    func waitUntilReady(timeout: Double = 30) -> Bool {
        process.stdoutLine(within: .seconds(timeout)) { $0 == "ready" } != nil
    }

    /// The name of the first `established KIND NAME ...` line.
    func established(_ kind: String) -> String? {
        process.lines.first { $0.hasPrefix("established \(kind) ") }.map { word($0, 2) }
    }

    /// The 1-based line number of the first line starting with `prefix`.
    func lineNumber(_ prefix: String) -> Int? { process.lines.firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 } }

    /// Sends `names` and returns the current instance name of its (last) commissionable record.
    func currentName() -> String? {
        let before = process.lines.count
        process.send("names")
        guard
            process.stdoutLine(
                within: .seconds(10), where: { _ in process.lines.count > before && process.lines.last == "names done" }
            ) != nil
        else { return nil }
        return process.lines.dropFirst(before).last { $0.hasPrefix("name ") }.map { word($0, 1) }
    }

    /// Sends `command` and waits for the line `confirmation`.
    func command(_ command: String, confirmation: String, timeout: Double = 20) -> Bool {
        process.send(command)
        return process.stdoutLine(within: .seconds(timeout)) { $0 == confirmation } != nil
    }

    /// `quit`, then `bye` within the hang guard.
    func quit(timeout: Double = 30) -> Bool {
        process.send("quit")
        let said = process.stdoutLine(within: .seconds(timeout)) { $0 == "bye" } != nil
        if process.exit(within: .seconds(10)) == nil { process.signal(SIGKILL) }
        return said
    }

    private func word(_ line: String, _ index: Int) -> String {
        let words = line.split(separator: " ")
        return index < words.count ? String(words[index]) : ""
    }
}

/// One resolved line of `avahi-browse -rpt` (`=;IFACE;PROTO;NAME;TYPE;DOMAIN;HOST;ADDRESS;PORT;TXT`).
struct AvahiResolved {
    let proto: String
    let name: String
    let txt: [String]

    init?(_ line: String) {
        let parts = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 10, parts[0] == "=" else { return nil }
        proto = parts[2]
        name = parts[3]
        // TXT strings are quoted and space separated: "K=V" "K=V".
        txt = parts[9...].joined(separator: ";").split(separator: "\"").map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
