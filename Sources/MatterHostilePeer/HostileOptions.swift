import MatterTransport

/// The command line of `matter-emu-hostile`.
struct HostileOptions {
    var targets: [UDPAddress] = []
    var count = 100_000
    /// Datagrams per second; 0 sends as fast as the socket takes them.
    var rate = 2000
    var seed: UInt64 = 1
    var weights: [HostileKind: Int] =
        Dictionary(uniqueKeysWithValues: HostileKind.allCases.map { ($0, $0.defaultWeight) })
    var halfOpenSockets = 128
    /// Seconds to keep listening for the device's answers after the last datagram.
    var linger = 1.0
    var json = false

    static let usage = """
        usage: matter-emu-hostile --target HOST:PORT [--target HOST:PORT ...] [--count N] [--rate N] [--seed N]
                                  [--mix KIND=WEIGHT,...] [--sockets N] [--linger SECONDS] [--json]

        A hostile peer for tests on a private network: sends a device a seeded mix of random and mutated
        datagrams, valid headers with garbage payloads, replays, and half-open PASE and CASE attempts, then
        prints one summary line (a JSON object with --json) with what it sent by kind and what the device
        should have done with it, named after the device's counters (matter-emu device --stats-interval).

          --target HOST:PORT  the device; IPv4, [IPv6]:PORT or [fe80::1%IFACE]:PORT; several alternate
          --count N           datagrams in all (default 100000)
          --rate N            datagrams per second, 0 for as fast as possible (default 2000)
          --seed N            seed of everything random (default 1): the same seed sends the same bytes
          --mix K=W,...       weights of the kinds (percent-like; missing kinds keep their default, 0 drops one):
                              random 20, secured 25, unsecured 20, mutated 15, duplicate 10, replay 4,
                              half-open 4, sigma1 2
          --sockets N         source ports half-open PASE attempts come from (default 128)
          --linger SECONDS    keep counting the device's answers this long after the last datagram (default 1)
          --json              the summary as one JSON object

        Expected outcomes assume a commissioned device whose commissioning window is closed.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[index]
        }
        func number<T: FixedWidthInteger>(_ name: String, _ text: String, as: T.Type = T.self) throws(UsageError) -> T {
            guard let parsed = T(text) else { throw UsageError(description: "\(name): '\(text)' is not a number") }
            return parsed
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--target":
                let text = try value(argument)
                guard let address = UDPAddress(endpoint: text) else {
                    throw UsageError(
                        description: "--target: '\(text)' is not HOST:PORT, [IPv6]:PORT or [fe80::1%IFACE]:PORT")
                }
                targets.append(address)
            case "--count": count = try number(argument, try value(argument))
            case "--rate": rate = try number(argument, try value(argument))
            case "--seed": seed = try number(argument, try value(argument))
            case "--sockets": halfOpenSockets = try number(argument, try value(argument))
            case "--linger":
                let text = try value(argument)
                guard let seconds = Double(text), seconds >= 0 else {
                    throw UsageError(description: "--linger: '\(text)' is not a number of seconds")
                }
                linger = seconds
            case "--mix":
                for item in try value(argument).split(separator: ",") {
                    let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let kind = HostileKind(rawValue: parts[0]), let weight = Int(parts[1]),
                        weight >= 0
                    else {
                        throw UsageError(
                            description: "--mix: '\(item)' is not KIND=WEIGHT (kinds: "
                                + HostileKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                    }
                    weights[kind] = weight
                }
            case "--json": json = true
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
            index += 1
        }
        guard !targets.isEmpty else { throw UsageError(description: "--target is required") }
        guard count > 0, rate >= 0, (1...1024).contains(halfOpenSockets) else {
            throw UsageError(description: "--count must be positive, --rate not negative, --sockets 1...1024")
        }
        guard weights.values.contains(where: { $0 > 0 }) else {
            throw UsageError(description: "--mix: every weight is 0")
        }
    }
}
