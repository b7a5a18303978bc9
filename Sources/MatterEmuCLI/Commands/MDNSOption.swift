import MatterDiscovery

/// `--mdns avahi|embedded|auto`, shared by device, fleet, discover and the controller commands.
enum MDNSOption {
    static let spec = OptionSpec.value(
        "mdns", "avahi|embedded|auto",
        "mDNS implementation: the Avahi daemon (default), the embedded responder/querier on port 5353, or auto "
            + "(Avahi when its daemon answers on D-Bus, else embedded)")

    /// The backend asked for, or nil when the option is absent.
    static func parse(_ arguments: ParsedArguments, command: String) throws(UsageError) -> MDNSBackend? {
        guard let text = arguments.value("mdns") else { return nil }
        guard let backend = MDNSBackend(rawValue: text) else {
            throw UsageError("--mdns expects avahi, embedded or auto, got '\(text)'", command: command)
        }
        return backend
    }
}
