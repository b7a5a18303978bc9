public import MatterClusters
public import MatterCore
import MatterInteraction
import MatterTLV

/// A twin of a recorded node (`matter-emu device --from-dump`): endpoints, device types, clusters, feature
/// maps, revisions, attribute values and command lists as the ``NodeDump`` has them.
///
/// - What belongs to the twin itself, not to the recording: the clusters of endpoint 0 that hold fabrics,
///   commissioning and the host's own state (``liveClusters``: the device's servers serve them), and the
///   entries of fabric-scoped lists elsewhere (a Binding's, for example), which start empty.
/// - Every other cluster is a ``GenericClusterServer`` holding the recorded values: writable where the
///   model says, an accepted command answered by the catalogue's behaviour for the cluster where its
///   features fit (``ClusterBehaviour``), else with success. Elements the model does not know (a vendor's
///   clusters, attributes and commands) are served as recorded.
/// - The Descriptor is the recorded one, so PartsList, ServerList, ClientList and TagList read as recorded.
///
/// A dump that cannot make a node is refused (``NodeDumpError``): no BasicInformation VendorID and ProductID,
/// an endpoint without a Descriptor DeviceTypeList, a PartsList naming an absent endpoint, a ServerList
/// naming a cluster with nothing recorded or missing one that is, global attributes of the wrong kind.
/// What can still be faithful is served and noted in ``warnings``: an attribute the AttributeList names
/// without a recorded value gets the model's default.
public struct NodeTwin: Sendable {
    package let dump: NodeDump
    public let vendorID: VendorID
    public let productID: ProductID
    /// The first device type of the first application endpoint (the certification declaration's).
    package let primaryDeviceType: DeviceType
    /// What was noticed and served anyway (the dump's warnings first).
    public let warnings: [String]

    /// The clusters of endpoint 0 the device serves itself: fabrics, commissioning, access control, group
    /// keys, and the host's diagnostics (up time, boot reason, network interfaces).
    package static let liveClusters: Set<ClusterID> = [
        .accessControl, .generalCommissioning, .operationalCredentials, .groupKeyManagement,
        .administratorCommissioning, .generalDiagnostics,
    ]

    /// True for an attribute that belongs to the device's fabrics or to its own running rather than to the
    /// recording: endpoint 0's ``liveClusters``, and fabric-scoped attributes anywhere. A twin's read of
    /// such an attribute differs from the recording by design.
    public static func isFabricBound(_ path: NodeDump.Path) -> Bool {
        (path.endpoint == .root && liveClusters.contains(path.cluster))
            || NodeDump.attributeSchema(path)?.isFabricScoped == true
    }

    /// The global attributes the data model and the engine serve from the server's description.
    static let describedGlobals: Set<AttributeID> = [
        .generatedCommandList, .acceptedCommandList, .attributeList, .featureMap, .clusterRevision,
    ]

    public init(_ dump: NodeDump) throws(NodeDumpError) {
        self.dump = dump
        var warnings = dump.warnings
        guard dump.endpoints.contains(.root) else { throw NodeDumpError("the dump", "no endpoint 0 (root node)") }
        func identifier(_ attribute: AttributeID, _ name: String) throws(NodeDumpError) -> UInt16 {
            guard case .unsigned(let raw)? = dump.value(.root, .basicInformation, attribute),
                let value = UInt16(exactly: raw)
            else {
                throw NodeDumpError(
                    "0/40/\(attribute.rawValue)", "BasicInformation \(name) (a 16-bit number) is not recorded")
            }
            return value
        }
        vendorID = VendorID(try identifier(.BasicInformation.vendorID, "VendorID"))
        productID = ProductID(try identifier(.BasicInformation.productID, "ProductID"))
        var primary: DeviceType?
        for endpoint in dump.endpoints {
            let types = try Self.deviceTypes(dump, endpoint)
            if endpoint != .root, primary == nil { primary = types.first }
            try Self.checkComposition(dump, endpoint)
            for cluster in dump.clusters(on: endpoint) {
                try Self.checkGlobals(dump, endpoint, cluster, warnings: &warnings)
            }
        }
        primaryDeviceType = primary ?? .rootNode
        self.warnings = warnings
    }

    /// Fresh endpoints for a data model: endpoint 0 without the ``liveClusters`` (the device adds its own),
    /// then every other endpoint. `nodeLabel` (a device's `--name`) replaces the recorded NodeLabel.
    package func makeEndpoints(nodeLabel: String? = nil) -> [Endpoint] {
        dump.endpoints.map { id in
            let types = (try? Self.deviceTypes(dump, id)) ?? []
            let endpoint = Endpoint(id, deviceTypes: types)
            for cluster in dump.clusters(on: id) where id != .root || !Self.liveClusters.contains(cluster) {
                let made = server(id, cluster)
                if id == .root, cluster == .basicInformation, let nodeLabel,
                    let information = made as? GenericClusterServer
                {
                    information.update(.BasicInformation.nodeLabel, .utf8(nodeLabel))
                }
                endpoint.insert(made)
            }
            return endpoint
        }
    }

    /// The recorded server of `cluster` on `endpoint`, with the catalogue's behaviour where it fits.
    func server(_ endpoint: EndpointID, _ cluster: ClusterID) -> ClusterServer {
        let known = ClusterRegistry.standard.cluster(cluster)
        let schema =
            known
            ?? ClusterSchema(
                cluster, "Cluster0x" + String(cluster.rawValue, radix: 16, uppercase: true), revision: 1,
                attributes: [])
        func number(_ attribute: AttributeID) -> UInt64? {
            if case .unsigned(let value)? = dump.value(endpoint, cluster, attribute) { value } else { nil }
        }
        let listed = dump.identifiers(endpoint, cluster, .attributeList)?.compactMap(UInt32.init(exactly:))
        let recordedIDs = dump.attributes.keys.filter { $0.endpoint == endpoint && $0.cluster == cluster }
            .map(\.attribute).sorted { $0.rawValue < $1.rawValue }
        var order = listed.map { $0.map(AttributeID.init) } ?? recordedIDs
        for id in recordedIDs where !order.contains(id) { order.append(id) }
        var attributes: [(id: AttributeID, value: TLVValue)] = []
        for id in order where !Self.describedGlobals.contains(id) {
            let attributeSchema = schema.attribute(id)
            if attributeSchema?.isFabricScoped == true {
                attributes.append((id, .array([])))
            } else if let value = dump.value(endpoint, cluster, id) {
                attributes.append((id, value))
            } else if let attributeSchema {
                attributes.append((id, ClusterValueCheck.initialValue(of: attributeSchema)))
            }
        }
        let commands = { (attribute: AttributeID) in
            (dump.identifiers(endpoint, cluster, attribute) ?? []).compactMap(UInt32.init(exactly:)).map(CommandID.init)
        }
        let server = GenericClusterServer(
            recorded: schema, revision: number(.clusterRevision).flatMap(UInt16.init(exactly:)) ?? schema.revision,
            featureMap: number(.featureMap).flatMap(UInt32.init(exactly:)) ?? 0, attributes: attributes,
            accepted: commands(.acceptedCommandList), generated: commands(.generatedCommandList))
        if let behaviour = ClusterBehaviour.of(schema), fits(behaviour, server, schema) {
            behaviour.attach(server)
            // What the behaviour set up for a fresh device (a thermostat in Heat, an appliance stopped) gives
            // way to the recording.
            for (id, value) in attributes where server.value(id) != value { server.update(id, value) }
        }
        return server
    }

    /// Whether the server has every feature, attribute and command the behaviour serves.
    func fits(_ behaviour: ClusterBehaviour, _ server: GenericClusterServer, _ schema: ClusterSchema) -> Bool {
        let features = behaviour.features.allSatisfy { name in
            schema.feature(named: name).map { server.features.contains($0.code) } ?? false
        }
        let attributes = Set(server.attributes.map(\.id))
        let commands = Set(server.acceptedCommands.map(\.id))
        return features && behaviour.attributes.allSatisfy(attributes.contains)
            && behaviour.commands.allSatisfy(commands.contains)
    }

    // MARK: - Checks

    static func deviceTypes(_ dump: NodeDump, _ endpoint: EndpointID) throws(NodeDumpError) -> [DeviceType] {
        let location = "\(endpoint.rawValue)/29/0"
        guard case .array(let entries)? = dump.value(endpoint, .descriptor, .Descriptor.deviceTypeList),
            !entries.isEmpty
        else { throw NodeDumpError(location, "endpoint \(endpoint.rawValue) has no Descriptor DeviceTypeList") }
        var types: [DeviceType] = []
        for entry in entries {
            guard let id = entry[context: 0]?.uint.flatMap(UInt32.init(exactly:)),
                let revision = entry[context: 1]?.uint.flatMap(UInt16.init(exactly:))
            else { throw NodeDumpError(location, "a DeviceTypeStruct without a device type and revision") }
            types.append(DeviceType(DeviceTypeID(id), revision: revision))
        }
        return types
    }

    static func checkComposition(_ dump: NodeDump, _ endpoint: EndpointID) throws(NodeDumpError) {
        let here = endpoint.rawValue
        let endpoints = Set(dump.endpoints.map { UInt64($0.rawValue) })
        for part in dump.identifiers(endpoint, .descriptor, .Descriptor.partsList) ?? [] {
            guard endpoints.contains(part), part != UInt64(here) else {
                throw NodeDumpError("\(here)/29/3", "PartsList names endpoint \(part), which is not in the dump")
            }
        }
        guard let servers = dump.identifiers(endpoint, .descriptor, .Descriptor.serverList) else {
            throw NodeDumpError("\(here)/29/1", "endpoint \(here) has no Descriptor ServerList of cluster IDs")
        }
        let recorded = Set(dump.clusters(on: endpoint).map { UInt64($0.rawValue) })
        for cluster in servers where !recorded.contains(cluster) {
            throw NodeDumpError("\(here)/29/1", "ServerList names cluster \(cluster), which has nothing recorded")
        }
        for cluster in recorded.sorted() where !servers.contains(cluster) {
            throw NodeDumpError("\(here)/\(cluster)", "cluster \(cluster) is recorded but not in the ServerList")
        }
    }

    static func checkGlobals(
        _ dump: NodeDump, _ endpoint: EndpointID, _ cluster: ClusterID, warnings: inout [String]
    ) throws(NodeDumpError) {
        let prefix = "\(endpoint.rawValue)/\(cluster.rawValue)"
        for list in [AttributeID.attributeList, .acceptedCommandList, .generatedCommandList] {
            if dump.value(endpoint, cluster, list) != nil, dump.identifiers(endpoint, cluster, list) == nil {
                throw NodeDumpError("\(prefix)/\(list.rawValue)", "not a list of unsigned integers")
            }
        }
        for (attribute, bits) in [(AttributeID.featureMap, 32), (.clusterRevision, 16)] {
            guard let value = dump.value(endpoint, cluster, attribute) else {
                warnings.append("\(prefix)/\(attribute.rawValue): not recorded; the model's value is served")
                continue
            }
            guard case .unsigned(let number) = value, number < UInt64(1) << UInt64(bits) else {
                throw NodeDumpError("\(prefix)/\(attribute.rawValue)", "not a \(bits)-bit unsigned integer")
            }
        }
        guard endpoint != .root || !liveClusters.contains(cluster),
            let listed = dump.identifiers(endpoint, cluster, .attributeList)
        else { return }
        let schema = ClusterRegistry.standard.cluster(cluster)
        for raw in listed {
            guard let id = UInt32(exactly: raw).map(AttributeID.init), !describedGlobals.contains(id),
                dump.value(endpoint, cluster, id) == nil
            else { continue }
            if schema?.attribute(id) != nil {
                warnings.append("\(prefix)/\(raw): listed in AttributeList but not recorded; its default is served")
            } else {
                warnings.append(
                    "\(prefix)/\(raw): listed in AttributeList but not recorded and not in the model; left out")
            }
        }
    }
}
