import Foundation
import MatterDevice
import MatterHTTP

/// `--http [ADDR:]PORT` and `--http-token TOKEN` of `device` and `fleet`: where the server listens and
/// the token it asks for (required off loopback: one is made when none is given).
struct WebOptions {
    let address: HTTPListenAddress
    let token: String?
    /// True when the token was made here (the process prints it).
    let tokenGenerated: Bool

    static let options: [OptionSpec] = [
        .value(
            "http", "[ADDR:]PORT",
            "serve the dashboard, a JSON API, an event stream and /metrics (docs/HTTP.md); address 127.0.0.1 unless given"
        ),
        .value(
            "http-token", "TOKEN", "the Bearer token --http asks for (off loopback one is made and printed if absent)"),
    ]

    /// The options given, or nil without `--http`.
    init?(arguments: ParsedArguments, command: String) throws(UsageError) {
        guard let text = arguments.value("http") else {
            if arguments.value("http-token") != nil { throw UsageError("--http-token needs --http", command: command) }
            return nil
        }
        do {
            address = try HTTPListenAddress(parsing: text)
        } catch {
            throw UsageError("\(error)", command: command)
        }
        if let given = arguments.value("http-token") {
            guard given.utf8.count >= 16, given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw UsageError("--http-token must be at least 16 printable ASCII characters", command: command)
            }
            token = given
            tokenGenerated = false
        } else if address.isLoopback {
            token = nil
            tokenGenerated = false
        } else {
            var generator = SystemRandomNumberGenerator()  // getrandom(2)
            token = (0..<16).map { _ in Self.hexDigits(UInt8.random(in: 0...255, using: &generator)) }.joined()
            tokenGenerated = true
        }
    }

    private static func hexDigits(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }
}

/// The running `--http` server and the hub its event streams read from.
final class WebServer: Sendable {
    let server: HTTPServer
    let hub: HTTPEventHub
    let log: WebEventLog
    let options: WebOptionsSnapshot

    /// Starts serving `nodes` as `options` say.
    init(_ options: WebOptions, nodes: WebNodes) throws(DeviceError) {
        let hub = HTTPEventHub()
        let log = WebEventLog()
        let api = WebAPI(nodes: nodes, hub: hub, log: log)
        do {
            server = try HTTPServer(
                address: options.address,
                policy: HTTPAccessPolicy(token: options.token, loopbackOnly: options.address.isLoopback), hub: hub
            ) { request in await api.handle(request) }
        } catch {
            throw .invalidConfiguration(error.message)
        }
        self.hub = hub
        self.log = log
        self.options = WebOptionsSnapshot(token: options.token, tokenGenerated: options.tokenGenerated)
    }

    /// The dashboard's address (with `?token=` when the token was made here, so it opens as printed).
    var dashboardURL: String {
        server.address.url + "/" + (options.tokenGenerated ? "?token=" + (options.token ?? "") : "")
    }

    /// Sends one device event (the fields of `--json`'s line, with `device`) to every event stream, and
    /// keeps it in the device's event log unless it is an attribute value (with `time`, ms since 1970).
    func publish(device index: Int, _ event: DeviceEvent) {
        var isValue = false
        if case .attribute(_, _, .some, _, _) = event { isValue = true }
        if !isValue {
            let time = Int64(Date().timeIntervalSince1970 * 1000)
            log.append(
                device: index,
                JSONValue.object(
                    [("device", .int(Int64(index))), ("time", .int(time))] + DeviceEventJSON.fields(event)
                ).serialized(pretty: false))
        }
        guard hub.subscriberCount > 0 else { return }
        hub.publish(
            JSONValue.object([("device", .int(Int64(index)))] + DeviceEventJSON.fields(event)).serialized(pretty: false)
        )
    }

    func stop() { server.stop() }
}

/// What the server keeps of its options.
struct WebOptionsSnapshot: Sendable {
    let token: String?
    let tokenGenerated: Bool
}
