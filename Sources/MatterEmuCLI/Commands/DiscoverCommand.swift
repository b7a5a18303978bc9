import MatterCore
import MatterDiscovery

/// `matter-emu discover [commissionable|operational]`: browse `_matterc._udp` or `_matter._tcp`
/// through the system's Avahi daemon, or the embedded mDNS querier (`--mdns`).
struct DiscoverCommand: CLICommand {
    static let path = ["discover"]
    static let summary = "find commissionable or operational Matter nodes through Avahi or the embedded querier"
    static let options: [OptionSpec] = [
        .value("discriminator", "N", "long (12-bit) discriminator"),
        .value("short-discriminator", "N", "short (4-bit) discriminator"),
        .value("vendor-id", "ID", "vendor ID"),
        .value("device-type", "ID", "primary device type ID"),
        .flag("commissioning-mode", "only nodes with an open commissioning window"),
        .value("instance", "NAME", "one instance name"),
        .value("fabric", "HEX", "operational: compressed fabric ID (16 hex digits)"),
        .value("timeout", "SECONDS", "how long to browse (whole seconds, 1...86400; default 3)"),
        .value("count", "N", "stop after N nodes"),
        MDNSOption.spec,
    ]
    static let positionals: [PositionalSpec] = [
        .optional("kind", "commissionable (default) or operational")
    ]
    static let discussion = """
        Several filters may be combined; a node must match all of them. Needs a running avahi-daemon
        (the virtual LAN of scripts/lan.sh has one per host); without one it says so and exits 3.
        --mdns embedded browses with matter-emu's own querier instead (port 5353, no daemon needed).

        examples:
          matter-emu discover commissionable --discriminator 3840
          matter-emu discover operational --json
        """

    enum Kind { case commissionable, operational }

    let kind: Kind
    let commissionableFilters: [CommissionableFilter]
    let operationalFilter: OperationalFilter
    let timeout: Duration
    let limit: Int?
    let mdns: MDNSBackend
    let context: CLIContext

    init(arguments: ParsedArguments, context: CLIContext) throws {
        switch arguments.positionals.first ?? "commissionable" {
        case "commissionable": kind = .commissionable
        case "operational": kind = .operational
        case let other:
            throw UsageError("unknown kind '\(other)' (commissionable or operational)", command: Self.pathString)
        }
        var filters: [CommissionableFilter] = []
        if let d: UInt16 = try arguments.unsigned("discriminator") {
            guard d <= 0xFFF else {
                throw UsageError("--discriminator \(d) is out of range (0...4095)", command: Self.pathString)
            }
            filters.append(.longDiscriminator(d))
        }
        if let s: UInt8 = try arguments.unsigned("short-discriminator") {
            guard s <= 0xF else {
                throw UsageError("--short-discriminator \(s) is out of range (0...15)", command: Self.pathString)
            }
            filters.append(.shortDiscriminator(s))
        }
        if let v: UInt16 = try arguments.unsigned("vendor-id") { filters.append(.vendor(VendorID(v))) }
        if let t: UInt32 = try arguments.unsigned("device-type") { filters.append(.deviceType(DeviceTypeID(t))) }
        if arguments.has("commissioning-mode") { filters.append(.commissioningMode) }
        if let name = arguments.value("instance") { filters.append(.instanceName(name)) }
        commissionableFilters = filters
        if let fabric = arguments.value("fabric") {
            guard let value = UInt64(fabric, radix: 16) else {
                throw UsageError("--fabric expects 16 hex digits, got '\(fabric)'", command: Self.pathString)
            }
            operationalFilter = .compressedFabricID(value)
        } else {
            operationalFilter = .any
        }
        if kind == .operational, !filters.isEmpty {
            throw UsageError("commissionable filters do not apply to operational discovery", command: Self.pathString)
        }
        timeout = .seconds(try arguments.wholeSeconds("timeout", in: 1...86_400) ?? 3)
        limit = try arguments.unsigned("count", as: UInt32.self).map(Int.init)
        mdns = try MDNSOption.parse(arguments, command: Self.pathString) ?? .avahi
        self.context = context
    }

    func run() async throws -> ExitCode {
        let dnssd = try await mdns.start(label: "matter-emu.discover")
        defer { Task { await dnssd.stop() } }
        switch kind {
        case .commissionable:
            let query = commissionableFilters.first ?? .any
            let found = try await dnssd.discoverCommissionable(query, timeout: timeout, limit: limit)
                .filter { node in
                    guard let ad = node.advertisement else { return false }
                    return commissionableFilters.allSatisfy { $0.matches(ad) }
                }
            report(found.map(Self.json), lines: found.map(Self.text))
            return found.isEmpty ? .discovery : .success
        case .operational:
            let found = try await dnssd.discoverOperational(operationalFilter, timeout: timeout, limit: limit)
            report(found.map(Self.json), lines: found.map(Self.text))
            return found.isEmpty ? .discovery : .success
        }
    }

    private func report(_ nodes: [JSONValue], lines: [String]) {
        if context.json {
            context.output.printJSON(.object([("nodes", .array(nodes))]))
        } else if lines.isEmpty {
            context.output.progress("no node found within \(timeout)")
        } else {
            context.output.print(lines.joined(separator: "\n"))
        }
    }

    static func addresses(_ list: [DNSSDAddress], port: UInt16) -> [String] { list.map { $0.hostPort(port) } }

    static func json(_ node: DiscoveredCommissionableNode) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("instance", .string(node.instanceName)), ("host", .string(node.hostName)),
            ("port", .uint(UInt64(node.port))),
            ("addresses", .array(addresses(node.addresses, port: node.port).map { .string($0) })),
        ]
        if let ad = node.advertisement {
            members.append(("discriminator", .uint(UInt64(ad.longDiscriminator))))
            members.append(("commissioningMode", .uint(UInt64(ad.commissioningMode.rawValue))))
            if let v = ad.vendorID { members.append(("vendorID", .uint(UInt64(v.rawValue)))) }
            if let p = ad.productID { members.append(("productID", .uint(UInt64(p.rawValue)))) }
            if let t = ad.deviceType { members.append(("deviceType", .uint(UInt64(t.rawValue)))) }
            if let n = ad.deviceName { members.append(("deviceName", .string(n))) }
        }
        return .object(members)
    }

    static func text(_ node: DiscoveredCommissionableNode) -> String {
        var parts = [node.instanceName]
        if let ad = node.advertisement {
            parts.append("D=\(ad.longDiscriminator) CM=\(ad.commissioningMode)")
            if let v = ad.vendorID, let p = ad.productID { parts.append("VP=\(v.rawValue)+\(p.rawValue)") }
            if let t = ad.deviceType { parts.append("DT=\(t.rawValue)") }
            if let n = ad.deviceName { parts.append("DN=\"\(n)\"") }
        }
        parts.append(addresses(node.addresses, port: node.port).joined(separator: " "))
        return parts.joined(separator: "  ")
    }

    static func json(_ node: DiscoveredOperationalNode) -> JSONValue {
        .object([
            ("instance", .string(node.instanceName)),
            ("compressedFabricID", .string(hexDigits(node.advertisement.compressedFabricID, width: 16))),
            ("nodeID", .uint(node.advertisement.nodeID.rawValue)),
            ("host", .string(node.hostName)), ("port", .uint(UInt64(node.port))),
            ("addresses", .array(addresses(node.addresses, port: node.port).map { .string($0) })),
        ])
    }

    static func text(_ node: DiscoveredOperationalNode) -> String {
        "\(node.instanceName)  node \(node.advertisement.nodeID.rawValue)  "
            + addresses(node.addresses, port: node.port).joined(separator: " ")
    }
}

extension DiscoveryError: ExitCodeProviding {
    var exitCode: ExitCode { .discovery }
}
