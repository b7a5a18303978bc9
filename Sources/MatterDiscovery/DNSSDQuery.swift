/// What to browse for: a service type, optionally narrowed to one subtype and/or one instance name.
package struct DNSSDQuery: Sendable, Hashable, CustomStringConvertible {
    /// Service type such as `_matterc._udp`.
    package var serviceType: String
    /// Subtype label such as `_L3840`; nil browses the whole type.
    package var subtype: String?
    /// Only this instance (compared case-insensitively, as DNS does); nil for all.
    package var instanceName: String?

    package init(serviceType: String, subtype: String? = nil, instanceName: String? = nil) {
        self.serviceType = serviceType
        self.subtype = subtype
        self.instanceName = instanceName
    }

    /// The name handed to the browser: `_L3840._sub._matterc._udp` or `_matterc._udp`.
    package var browseType: String {
        subtype.map { MatterDNSSD.subtypeServiceName($0, of: serviceType) } ?? serviceType
    }

    /// True when `name` is the wanted instance (or no instance was asked for).
    package func accepts(instanceName name: String) -> Bool {
        guard let instanceName else { return true }
        return instanceName.lowercased() == name.lowercased()
    }

    package var description: String {
        browseType + (instanceName.map { " instance \($0)" } ?? "")
    }
}
