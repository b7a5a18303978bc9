import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What `matter-emu doctor` finds about mDNS on this host: which backend `--mdns auto` would take, the
/// interfaces the embedded responder would use, whether it can share port 5353, whether multicast it sends
/// comes back, who else answers on the LAN, and which other responders hold port 5353 here. Each finding
/// says what to do about it.
package struct MDNSDiagnosis: Sendable {
    package enum Status: String, Sendable { case ok, warning, problem }

    /// One finding.
    package struct Check: Sendable {
        /// `avahi`, `backend`, `interfaces`, `port`, `multicast`, `responders`.
        package let name: String
        package let status: Status
        package let detail: String
        /// What to do, when there is something to do.
        package let advice: String?
    }

    package let checks: [Check]
    /// What `--mdns auto` would use.
    package let autoBackend: MDNSBackend
    /// The interfaces the embedded responder would use.
    package let interfaces: [MDNSInterface]
    /// Other processes of this host holding UDP port 5353 (`avahi-daemon (pid 812)`).
    package let otherResponders: [String]
    /// Distinct senders of mDNS answers heard while listening.
    package let answeringHosts: [String]

    /// True when nothing is a problem.
    package var isHealthy: Bool { !checks.contains { $0.status == .problem } }
}

/// Runs the diagnosis (docs/CLI.md, `matter-emu doctor`).
package enum MDNSDoctor {
    /// Diagnoses this host: `interface` restricts the embedded responder as `--interface` does; `listen` is
    /// how long to listen for the looped-back query and other hosts' answers; `port` is 5353 but in tests.
    package static func diagnose(interface: String? = nil, listen: Duration = .seconds(2), port: UInt16 = 5353)
        async -> MDNSDiagnosis
    {
        var checks: [MDNSDiagnosis.Check] = []

        // Avahi over D-Bus, and so what `auto` takes.
        var autoBackend = MDNSBackend.embedded
        do {
            let avahi = try await AvahiDNSSD.start(label: "matter-emu.doctor")
            await avahi.stop()
            autoBackend = .avahi
            checks.append(
                .init(name: "avahi", status: .ok, detail: "avahi-daemon answers on the system D-Bus", advice: nil))
        } catch {
            checks.append(
                .init(
                    name: "avahi", status: .warning, detail: "no avahi-daemon answers: \(error)",
                    advice:
                        "--mdns auto and --mdns embedded publish and browse with matter-emu's own responder; for Avahi, install avahi-daemon and run it with the system D-Bus"
                ))
        }
        checks.append(
            .init(
                name: "backend", status: .ok,
                detail: "--mdns auto uses \(autoBackend == .avahi ? "Avahi" : "the embedded responder") on this host",
                advice: nil))

        // The interfaces.
        let interfaces: [MDNSInterface]
        if let interface {
            interfaces = MDNSInterface.named(interface).map { [$0] } ?? []
        } else {
            interfaces = MDNSInterface.defaults()
        }
        if interfaces.isEmpty {
            checks.append(
                .init(
                    name: "interfaces", status: .problem,
                    detail: interface.map { "no interface named \($0) is up with multicast" }
                        ?? "no interface other than loopback is up with multicast",
                    advice: "bring an interface up (ip link set IF up) with an address, or name one with --interface"))
        } else {
            let list = interfaces.map { item in
                "\(item.name) (\(item.ipv4.count) IPv4, \(item.ipv6.count) IPv6 address\(item.ipv6.count == 1 ? "" : "es"))"
            }
            checks.append(
                .init(name: "interfaces", status: .ok, detail: list.joined(separator: ", "), advice: nil))
        }

        // Others on 5353 before we bind (our own sockets are not counted).
        let others = responders(port: port)

        // Port 5353 and multicast: bind as the embedded responder does, send a query, hear it back.
        var answering: [String] = []
        if !interfaces.isEmpty {
            let queue = DispatchQueue(label: "matter-emu.doctor")
            var sockets: [MDNSSocket] = []
            var bindErrors: [String] = []
            for family in [MDNSSocket.Family.ipv4, .ipv6] {
                let usable = interfaces.filter { family == .ipv4 ? !$0.ipv4.isEmpty : !$0.ipv6.isEmpty }
                guard !usable.isEmpty else { continue }
                do throws(DiscoveryError) {
                    sockets.append(try MDNSSocket(family: family, port: port, interfaces: usable, queue: queue))
                } catch {
                    bindErrors.append("\(family == .ipv4 ? "IPv4" : "IPv6"): \(error)")
                }
            }
            if bindErrors.isEmpty {
                checks.append(
                    .init(
                        name: "port", status: .ok,
                        detail:
                            "UDP port \(port) bound, shared (SO_REUSEADDR, SO_REUSEPORT) with \(others.isEmpty ? "no other process" : others.joined(separator: ", "))",
                        advice: nil))
            } else {
                checks.append(
                    .init(
                        name: "port", status: sockets.isEmpty ? .problem : .warning,
                        detail: "UDP port \(port): \(bindErrors.joined(separator: "; "))",
                        advice:
                            "a process holding port \(port) without SO_REUSEPORT keeps others out: stop it, or use --mdns avahi if it is avahi-daemon"
                    ))
            }
            let heard = Heard()
            let id = UInt16.random(in: 1...UInt16.max)
            for socket in sockets {
                socket.start { datagram in heard.take(datagram, queryID: id) }
            }
            let query = DNSMessage(
                id: id,
                questions: [
                    (try? DNSName("_matterc._udp.local")).map { DNSQuestion(name: $0, type: .ptr) },
                    (try? DNSName("_matter._tcp.local")).map { DNSQuestion(name: $0, type: .ptr) },
                ].compactMap { $0 })
            var sendErrors: [String] = []
            queue.sync {
                for socket in sockets { sendErrors += socket.sendMulticast(query.serialize()).map { "\($0)" } }
            }
            try? await Task.sleep(for: listen)
            queue.sync { for socket in sockets { socket.close() } }
            let result = heard.snapshot
            answering = result.answerers.sorted()
            if result.ownQueryBack {
                checks.append(
                    .init(
                        name: "multicast", status: .ok,
                        detail: "a query sent to the mDNS group came back"
                            + (sendErrors.isEmpty ? "" : " (some sends failed: \(sendErrors.joined(separator: "; ")))"),
                        advice: nil))
            } else if !sockets.isEmpty {
                checks.append(
                    .init(
                        name: "multicast", status: .problem,
                        detail: "a query sent to 224.0.0.251/ff02::fb did not come back within \(listen)"
                            + (sendErrors.isEmpty ? "" : ": \(sendErrors.joined(separator: "; "))"),
                        advice:
                            "check that the interface has multicast on (ip link show: MULTICAST), joined the group (ip maddr), and that no firewall drops UDP 5353"
                    ))
            }
            checks.append(
                .init(
                    name: "lan", status: .ok,
                    detail: answering.isEmpty
                        ? "no other host answered for Matter services within \(listen)"
                        : "\(answering.count) sender(s) answered for Matter services: \(answering.joined(separator: ", "))",
                    advice: nil))
        }
        checks.append(
            .init(
                name: "responders", status: .ok,
                detail: others.isEmpty
                    ? "no other process of this host holds UDP port \(port)"
                    : "also on UDP port \(port): \(others.joined(separator: ", "))",
                advice: others.isEmpty
                    ? nil
                    : "nothing to do: the port is shared; each responder answers for its own records"))
        return MDNSDiagnosis(
            checks: checks, autoBackend: autoBackend, interfaces: interfaces, otherResponders: others,
            answeringHosts: answering)
    }

    /// What came back while listening: our own query, and who answered.
    private final class Heard: Sendable {
        struct State {
            var ownQueryBack = false
            var answerers: Set<String> = []
        }
        private let state = Mutex(State())

        func take(_ datagram: MDNSDatagram, queryID: UInt16) {
            guard let message = try? DNSMessage(bytes: datagram.bytes) else { return }
            state.withLock { state in
                if !message.isResponse, message.id == queryID { state.ownQueryBack = true }
                if message.isResponse, !message.answers.isEmpty {
                    state.answerers.insert(MDNSDoctor.text(datagram.source))
                }
            }
        }

        var snapshot: State { state.withLock { $0 } }
    }

    /// An address as text.
    static func text(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        var words: [String] = []
        for index in stride(from: 0, to: address.count - 1, by: 2) {
            words.append(String(UInt16(address[index]) << 8 | UInt16(address[index + 1]), radix: 16))
        }
        return words.joined(separator: ":")
    }

    /// The processes holding UDP `port` (from /proc/net/udp and udp6, their socket inodes matched in
    /// /proc/PID/fd): `avahi-daemon (pid 812)`. Processes this user cannot look into show as `pid ?`.
    static func responders(port: UInt16) -> [String] {
        let hexPort = String(port, radix: 16, uppercase: true)
        var inodes: Set<String> = []
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9,
                    fields[1].hasSuffix(":" + String(repeating: "0", count: max(0, 4 - hexPort.count)) + hexPort)
                else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        guard !inodes.isEmpty else { return [] }
        var found: [String] = []
        var matched: Set<String> = []
        let me = getpid()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != me else { continue }
            let fds = "/proc/\(entry)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? [] {
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\(fd)"),
                    link.hasPrefix("socket:["), link.hasSuffix("]")
                else { continue }
                let inode = String(link.dropFirst(8).dropLast())
                guard inodes.contains(inode) else { continue }
                matched.insert(inode)
                let name =
                    (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                let text = "\(name) (pid \(pid))"
                if !found.contains(text) { found.append(text) }
            }
        }
        let unknown = inodes.subtracting(matched).count
        if unknown > 0 { found.append("\(unknown) socket(s) of processes this user cannot see (pid ?)") }
        return found
    }
}
