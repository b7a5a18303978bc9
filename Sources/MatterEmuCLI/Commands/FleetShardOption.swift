import MatterDevice

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `--shard I/N` and `--shard-ports` of `fleet`, and `--shards N` of `fleet codes`: the fleet's
/// ``FleetLayout`` and which shard this process runs.
enum FleetShardOption {
    static let shardSpec = OptionSpec.value(
        "shard", "I/N",
        "run shard I (0...N-1) of N: every identity derived from --seed, I and the index (`fleet codes` computes "
            + "them); I may be 'hostname', the number ending the host name (a StatefulSet pod's ordinal)")
    static let portsSpec = OptionSpec.value(
        "shard-ports", "disjoint|same",
        "with shards: disjoint (default: shard I's devices on base + I×count + index, so shards may share a host) "
            + "or same (base + index in every shard, for shards with addresses of their own)")

    /// Parses `I/N`; `hostName` gives the host name for `hostname/N`.
    static func parseShard(_ text: String, command: String, hostName: () -> String? = currentHostName)
        throws(UsageError) -> (index: Int, count: Int)
    {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw UsageError("--shard expects I/N (shard I of N, I from 0), got '\(text)'", command: command)
        }
        guard let count = Int(parts[1]), count >= 1 else {
            throw UsageError("--shard \(text): N must be a whole number of shards, 1 or more", command: command)
        }
        let index: Int
        if parts[0] == "hostname" {
            guard let name = hostName() else {
                throw UsageError("--shard \(text): cannot read the host name", command: command)
            }
            guard let ordinal = ordinal(ofHostName: name) else {
                throw UsageError(
                    "--shard \(text): the host name '\(name)' does not end in -<number> (a StatefulSet pod's does)",
                    command: command)
            }
            index = ordinal
        } else {
            guard let parsed = Int(parts[0]), parsed >= 0 else {
                throw UsageError("--shard \(text): I must be a whole number from 0 (or 'hostname')", command: command)
            }
            index = parsed
        }
        guard index < count else {
            throw UsageError(
                "--shard \(text): shard \(index) does not exist in \(count) (shards are 0...\(count - 1))",
                command: command)
        }
        return (index, count)
    }

    /// The number after the last '-' of a host name (`fleet-3` → 3), nil without one.
    static func ordinal(ofHostName name: String) -> Int? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let digits = name[name.index(after: dash)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        return value
    }

    /// `--shard-ports`, disjoint when absent.
    static func parsePorts(_ arguments: ParsedArguments, command: String) throws(UsageError) -> FleetLayout.PortLayout {
        guard let text = arguments.value("shard-ports") else { return .disjoint }
        guard let layout = FleetLayout.PortLayout(rawValue: text) else {
            throw UsageError("--shard-ports expects disjoint or same, got '\(text)'", command: command)
        }
        return layout
    }

    /// The layout, or a usage error that says why it cannot run.
    static func layout(
        seed: UInt64, shards: Int, countPerShard: Int, basePort: UInt16, baseDiscriminator: UInt16,
        ports: FleetLayout.PortLayout, command: String
    ) throws(UsageError) -> FleetLayout {
        var layout = FleetLayout(seed: seed, shards: shards, countPerShard: countPerShard)
        layout.basePort = basePort
        layout.baseDiscriminator = baseDiscriminator
        layout.ports = ports
        if let problem = layout.problem {
            let hint =
                ports == .disjoint && problem.contains("no room")
                ? "; --shard-ports same gives every shard the same ports, for shards with addresses of their own" : ""
            throw UsageError(problem + hint, command: command)
        }
        return layout
    }

    /// This host's name (a pod's is its StatefulSet name and ordinal).
    static func currentHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
