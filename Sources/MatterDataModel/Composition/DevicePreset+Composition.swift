import MatterClusters
package import MatterCore
import MatterTLV

extension DevicePreset {
    /// One endpoint of a device as its device type composes it (Matter Core 9.2): the device types it carries, what
    /// it must serve beyond them, its semantic tags and the endpoints it is made of (indexes into the plan).
    struct EndpointPlan {
        var deviceTypes: [DeviceTypeSchema]
        /// Cluster requirements beyond the device types' own: those of the part requirement that made this endpoint,
        /// and those of the utility parts merged into it.
        var extra: [DeviceTypeSchema.ClusterRequirement]
        var tags: [SemanticTag]
        var parts: [Int] = []
    }

    /// The endpoints a device of `schema` is made of, its own first, then its parts depth first. Every mandatory part
    /// of the device library's composition is there. A utility part (Power Source, Electrical Sensor, Device Energy
    /// Management) shares the endpoint of the device it belongs to, as its device type allows, unless the
    /// specification asks it to be told apart by semantic tags or the endpoint already carries that device type;
    /// every other part is an endpoint of its own, listed in its whole's PartsList.
    static func composition(_ schema: DeviceTypeSchema) -> Result<[EndpointPlan], Unservable> {
        var plans: [EndpointPlan] = []
        return compose(schema, extra: [], tags: [], into: &plans).map { _ in plans }
    }

    private static func compose(
        _ schema: DeviceTypeSchema, extra: [DeviceTypeSchema.ClusterRequirement], tags: [SemanticTag],
        into plans: inout [EndpointPlan]
    ) -> Result<Int, Unservable> {
        let index = plans.count
        plans.append(EndpointPlan(deviceTypes: [schema], extra: extra, tags: tags))
        for part in schema.parts where part.conformance.presence(features: []) == .mandatory {
            guard let partSchema = DeviceTypeSchema.all.first(where: { $0.id == part.deviceType }) else {
                return .failure(Unservable(reason: "its part \(part.name) is not in the data model"))
            }
            let tagged = part.clusters.contains { requirement in
                requirement.cluster == .descriptor && requirement.features.contains { $0.uppercased() == "TAGLIST" }
            }
            if partSchema.classification == "utility", !tagged, !plans[index].deviceTypes.contains(partSchema) {
                plans[index].deviceTypes.append(partSchema)
                plans[index].extra += part.clusters
                continue
            }
            var partTags: [SemanticTag] = []
            if tagged {
                guard let tag = tag(for: part, of: schema) else {
                    return .failure(Unservable(reason: "no semantic tag is known for its part \(part.name)"))
                }
                partTags = [tag]
            }
            switch compose(partSchema, extra: part.clusters, tags: partTags, into: &plans) {
            case .success(let child): plans[index].parts.append(child)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(index)
    }

    /// The tag that tells a part apart from its siblings: a Power Source by what powers it (a battery, the sun, the
    /// grid), an Electrical Sensor by the current it measures.
    private static func tag(for part: DeviceTypeSchema.PartRequirement, of whole: DeviceTypeSchema) -> SemanticTag? {
        let features = Set(part.clusters.flatMap(\.features).map { $0.uppercased() })
        switch part.deviceType {
        case DeviceTypeSchema.powerSource.id:
            if features.contains("BATTERY") || features.contains("BAT") { return .battery }
            return whole.id == DeviceTypeSchema.solarPower.id ? .solar : .grid
        case DeviceTypeSchema.electricalSensor.id:
            if features.contains("DIRECTCURRENT") { return .directCurrent }
            return .alternatingCurrent
        default:
            return nil
        }
    }

    /// The server requirements of a planned endpoint, one per cluster (the Descriptor aside), merged: its first
    /// device type's, its merged utility types', and the extra ones of its part requirements, each with the
    /// features, attributes and commands any of them asks for.
    static func requirements(of plan: EndpointPlan) -> [DeviceTypeSchema.ClusterRequirement] {
        var merged: [DeviceTypeSchema.ClusterRequirement] = []
        let extra = plan.extra.filter { $0.side == .server && $0.conformance.presence(features: []) == .mandatory }
        for requirement in plan.deviceTypes.flatMap(mandatoryServers) + extra where requirement.cluster != .descriptor {
            if let index = merged.firstIndex(where: { $0.cluster == requirement.cluster }) {
                merged[index] = union(merged[index], requirement)
            } else {
                merged.append(requirement)
            }
        }
        return merged
    }

    private static func union(
        _ a: DeviceTypeSchema.ClusterRequirement, _ b: DeviceTypeSchema.ClusterRequirement
    ) -> DeviceTypeSchema.ClusterRequirement {
        func join(_ x: [String], _ y: [String]) -> [String] { x + y.filter { !x.contains($0) } }
        return DeviceTypeSchema.ClusterRequirement(
            a.cluster, a.name, .server, conformance: .mandatory, features: join(a.features, b.features),
            attributes: join(a.attributes, b.attributes), commands: join(a.commands, b.commands))
    }

    /// The servers of a planned endpoint: its first device type's own (``makeServers()``: the behaviour-rich ones
    /// where the module has them), with each requirement they do not cover served by a server of its own.
    static func servers(of plan: EndpointPlan) -> Result<[ClusterServer], Unservable> {
        guard let first = plan.deviceTypes.first else { return .success([]) }
        var servers = DevicePreset(first).makeServers()
        for requirement in requirements(of: plan) {
            let index = servers.firstIndex { $0.id == requirement.cluster }
            if let index, let cluster = ClusterRegistry.standard.cluster(requirement.cluster),
                covers(servers[index], requirement, cluster)
            {
                continue
            }
            switch server(for: requirement) {
            case .success(let server):
                if let index { servers[index] = server } else { servers.append(server) }
            case .failure(let failure):
                return .failure(failure)
            }
        }
        return .success(servers)
    }

    /// The application endpoints, numbered from `first`: the device's own, then its parts (empty when a part cannot
    /// be served, which ``notServed(_:)`` keeps out of the catalogue).
    package func makeApplicationEndpoints(from first: EndpointID = EndpointID(1)) -> [Endpoint] {
        guard case .success(let plans) = Self.composition(schema) else { return [] }
        var endpoints: [Endpoint] = []
        for (offset, plan) in plans.enumerated() {
            let id = EndpointID(first.rawValue &+ UInt16(truncatingIfNeeded: offset))
            let types = plan.deviceTypes.map { DeviceType(DeviceTypeID($0.id), revision: $0.revision) }
            var clients: [ClusterID] = []
            for client in plan.deviceTypes.flatMap(Self.mandatoryClients) where !clients.contains(client) {
                clients.append(client)
            }
            let endpoint = Endpoint(id, deviceTypes: types, clientClusters: clients)
            endpoint.tags = plan.tags
            endpoint.parts = plan.parts.map { EndpointID(first.rawValue &+ UInt16(truncatingIfNeeded: $0)) }
            if !plan.tags.isEmpty { endpoint.insert(DescriptorServer(tagList: true)) }
            if case .success(let servers) = Self.servers(of: plan) {
                for server in servers { endpoint.insert(server) }
            }
            // A Power Source lists what it powers: the device it is part of, or its own endpoint.
            if let source = endpoint.cluster(.powerSource) as? GenericClusterServer {
                let whole = plans.firstIndex { $0.parts.contains(offset) }
                let powered = whole.map { first.rawValue &+ UInt16(truncatingIfNeeded: $0) } ?? id.rawValue
                source.update(.PowerSource.endpointList, .array([TLVElement(.unsigned(UInt64(powered)))]))
            }
            endpoints.append(endpoint)
        }
        return endpoints
    }
}
