package import MatterClusters
import MatterCore
import MatterInteraction

extension DevicePreset {
    /// Clusters with a server of their own in this module (behaviour, not only data).
    static let handWritten: Set<ClusterID> = [
        .identify, .groups, .scenesManagement, .onOff, .levelControl, .colorControl, .doorLock,
    ]

    /// The client clusters a device sends commands of to the nodes its Binding cluster names (a light switch,
    /// a dimmer switch, a doorbell ringing a chime): a device type whose mandatory clients are all among these or
    /// ``sessionClients`` is served, with a Binding server beside its own. A type that commands other clusters (a
    /// video remote) or whose name says it is a controller (a door lock controller) is not served.
    static let bindingClients: Set<ClusterID> = [
        .onOff, .levelControl, .colorControl, .identify, .groups, .scenesManagement, .chime,
    ]

    /// Client clusters a device uses towards the peer of a session its own server set up (a camera answering the
    /// WebRTC requestor that asked it for a stream, an intercom calling another): listed in the ClientList, and never
    /// sent, since no media stream is emulated.
    static let sessionClients: Set<ClusterID> = [.webRtcTransportRequestor, .webRtcTransportProvider]

    /// The mandatory client clusters of `schema`, in the model's order.
    static func mandatoryClients(_ schema: DeviceTypeSchema) -> [ClusterID] {
        schema.clusters.filter { $0.side == .client && $0.conformance == .mandatory }.map(\.cluster)
    }

    /// Why `schema` is not in the catalogue, or nil when a device can be it.
    package static func notServed(_ schema: DeviceTypeSchema) -> String? {
        guard schema.classification == "simple" else {
            return "a \(schema.classification) device type: part of other devices, not a device of its own"
        }
        if schema.clusters.contains(where: { $0.cluster == .threadNetworkDiagnostics && $0.side == .server }) {
            return "Thread network infrastructure: this project emulates devices over IP only"
        }
        let clients = mandatoryClients(schema)
        let commanded = clients.filter { !bindingClients.contains($0) && !sessionClients.contains($0) }
        if !commanded.isEmpty || (schema.name.hasSuffix("Controller") && !clients.isEmpty) {
            let names = (commanded.isEmpty ? clients : commanded).map {
                ClusterRegistry.standard.cluster($0)?.name ?? "\($0)"
            }
            return
                "a controller device type (it commands \(names.joined(separator: ", ")) of other devices): not served"
        }
        // A bridge: its Aggregator endpoint has no server but the Descriptor; its devices are endpoints of their own.
        if schema.id == DeviceTypeSchema.aggregator.id { return nil }
        let plans: [EndpointPlan]
        switch composition(schema) {
        case .success(let made): plans = made
        case .failure(let failure): return failure.reason
        }
        guard plans.count > 1 || !requirements(of: plans[0]).isEmpty || !clients.isEmpty else {
            return "it requires no server cluster and no part: nothing to serve"
        }
        for plan in plans {
            // Every requirement its own servers do not cover is served on its own, or fails here.
            if case .failure(let failure) = servers(of: plan) { return failure.reason }
        }
        return nil
    }

    /// The server clusters `schema` makes mandatory (the Descriptor aside: the data model adds it), with the
    /// first cluster of each choice group (`O.a+`).
    static func mandatoryServers(_ schema: DeviceTypeSchema) -> [DeviceTypeSchema.ClusterRequirement] {
        var groups: Set<String> = []
        var result: [DeviceTypeSchema.ClusterRequirement] = []
        for requirement in schema.clusters where requirement.side == .server && requirement.cluster != .descriptor {
            if case .choice(_, let group) = requirement.conformance {
                if groups.insert(group).inserted { result.append(requirement) }
            } else if requirement.conformance.presence(features: []) == .mandatory {
                result.append(requirement)
            }
        }
        return result
    }

    /// The application servers of endpoint 1 (fresh instances).
    func makeServers() -> [ClusterServer] {
        switch schema.id {
        case DeviceTypeSchema.onOffLight.id:
            return [
                IdentifyServer(identifyType: .lightOutput), GroupsServer(), ScenesManagementServer(), OnOffServer(),
            ]
        case DeviceTypeSchema.dimmableLight.id:
            return [
                IdentifyServer(identifyType: .lightOutput), GroupsServer(), ScenesManagementServer(), OnOffServer(),
                LevelControlServer(),
            ]
        case DeviceTypeSchema.colorTemperatureLight.id:
            return [
                IdentifyServer(identifyType: .lightOutput), GroupsServer(), ScenesManagementServer(), OnOffServer(),
                LevelControlServer(), ColorControlServer(),
            ]
        case DeviceTypeSchema.extendedColorLight.id:
            return [
                IdentifyServer(identifyType: .lightOutput), GroupsServer(), ScenesManagementServer(), OnOffServer(),
                LevelControlServer(), ColorControlServer(configuration: ColorControlServer.Configuration(xy: true)),
            ]
        case DeviceTypeSchema.onOffPlugInUnit.id:
            return [
                IdentifyServer(identifyType: .visibleIndicator), GroupsServer(), ScenesManagementServer(),
                OnOffServer(),
            ]
        case DeviceTypeSchema.doorLock.id:
            return [IdentifyServer(identifyType: .audibleBeep), DoorLockServer()]
        default:
            // The catalogue holds only types whose servers compose (`notServed`). A type that commands other
            // devices has the Binding cluster that names them.
            var servers = Self.mandatoryServers(schema).compactMap { try? Self.server(for: $0).get() }
            if !Self.mandatoryClients(schema).isEmpty, let binding = Self.bindingServer() { servers.append(binding) }
            return servers
        }
    }

    /// The Binding cluster's server: the targets a client-side device sends its commands to.
    static func bindingServer() -> ClusterServer? {
        ClusterRegistry.standard.cluster(.binding).flatMap { try? GenericClusterServer($0, features: []) }
    }

    /// Why a cluster could not be served.
    struct Unservable: Error {
        let reason: String
    }

    /// A server for one cluster of a device type: the module's own where it has one that serves every feature,
    /// attribute and command the device type asks for, else (with the cluster's ``ClusterBehaviour``, if it has
    /// one: its features, elements and reactions) a ``GenericClusterServer`` with the required features, the cluster's
    /// mandatory ones and the first of each choice group it must have one of.
    static func server(for requirement: DeviceTypeSchema.ClusterRequirement) -> Result<ClusterServer, Unservable> {
        guard let cluster = ClusterRegistry.standard.cluster(requirement.cluster) else {
            return .failure(Unservable(reason: "its cluster \(requirement.name) is not in the data model"))
        }
        if let server = handWrittenServer(requirement), covers(server, requirement, cluster) {
            return .success(server)
        }
        let behaviour = ClusterBehaviour.of(cluster)
        var features = Set(behaviour?.features ?? [])
        for name in requirement.features {
            guard let feature = cluster.feature(named: name) else {
                return .failure(Unservable(reason: "\(cluster.name) has no feature \(name)"))
            }
            features.insert(feature.code)
        }
        // An element the device type requires may need a feature of its own (a battery's BatCapacity: REPLC).
        let required =
            requirement.attributes.compactMap { cluster.attribute(named: $0)?.conformance }
            + requirement.commands.compactMap { cluster.command(named: $0)?.conformance }
        for conformance in required where conformance.presence(features: features) == .disallowed {
            let enabling = cluster.features.first { feature in
                !features.contains(feature.code) && feature.conformance.presence(features: features) != .disallowed
                    && conformance.presence(features: features.union([feature.code])) != .disallowed
            }
            if let enabling { features.insert(enabling.code) }
        }
        for feature in cluster.features where feature.conformance.presence(features: features) == .mandatory {
            features.insert(feature.code)
        }
        for feature in cluster.features {
            guard case .choice(let term, let group) = feature.conformance,
                term.presence(features: features) != .disallowed
            else { continue }
            let groupHasOne = cluster.features.contains { other in
                guard features.contains(other.code), case .choice(_, let otherGroup) = other.conformance else {
                    return false
                }
                return otherGroup == group
            }
            if !groupHasOne { features.insert(feature.code) }
        }
        var attributes = behaviour?.attributes ?? []
        for name in requirement.attributes {
            guard let attribute = cluster.attribute(named: name) else {
                return .failure(Unservable(reason: "\(cluster.name) has no attribute \(name)"))
            }
            attributes.append(attribute.id)
        }
        var commands = behaviour?.commands ?? []
        for name in requirement.commands {
            guard let command = cluster.command(named: name) else {
                return .failure(Unservable(reason: "\(cluster.name) has no command \(name)"))
            }
            commands.append(command.id)
        }
        do {
            let server = try GenericClusterServer(
                cluster, features: cluster.features.map(\.code).filter(features.contains),
                optionalAttributes: attributes, optionalCommands: commands, optionalEvents: behaviour?.events ?? [])
            behaviour?.attach(server)
            return .success(server)
        } catch {
            return .failure(Unservable(reason: "\(error)"))
        }
    }

    /// The module's own server of the required cluster, if it has one: OnOff and LevelControl with the Lighting
    /// feature when the device type asks for it (a dimmable plug-in unit, a mounted load control), else without.
    static func handWrittenServer(_ requirement: DeviceTypeSchema.ClusterRequirement) -> ClusterServer? {
        let lighting = requirement.features.contains { ["LIGHTING", "LT"].contains($0.uppercased()) }
        switch requirement.cluster {
        case .identify: return IdentifyServer(identifyType: .visibleIndicator)
        case .groups: return GroupsServer()
        case .scenesManagement: return ScenesManagementServer()
        case .onOff: return OnOffServer(lighting: lighting)
        case .levelControl:
            return LevelControlServer(configuration: LevelControlServer.Configuration(lighting: lighting))
        case .doorLock: return DoorLockServer()
        default: return nil
        }
    }

    /// Whether `server` has every feature, attribute and command the device type asks of its cluster.
    static func covers(
        _ server: ClusterServer, _ requirement: DeviceTypeSchema.ClusterRequirement, _ cluster: ClusterSchema
    ) -> Bool {
        let features = requirement.features.allSatisfy { name in
            cluster.feature(named: name).map { server.featureMap & $0.mask != 0 } ?? false
        }
        let attributes = requirement.attributes.allSatisfy { name in
            cluster.attribute(named: name).map { schema in server.attributes.contains { $0.id == schema.id } } ?? false
        }
        let commands = requirement.commands.allSatisfy { name in
            cluster.command(named: name).map { schema in server.acceptedCommands.contains { $0.id == schema.id } }
                ?? false
        }
        return features && attributes && commands
    }
}
