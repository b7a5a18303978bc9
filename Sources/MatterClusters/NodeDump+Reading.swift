import MatterCore
import MatterTLV

extension NodeDump {
    /// The `format` value of this project's dump files.
    public static let nativeFormatName = "matter-emu-node-dump"

    /// Reads a dump file's text in any format of ``NodeDumpFormat``:
    /// - this project's (`{"format": "matter-emu-node-dump", "attributes": {"1/6/0": {"tlv": "09", ...}}}`);
    /// - a node of python-matter-server or matterjs-server, or a Home Assistant test fixture
    ///   (`{"node_id": 1, "attributes": {"1/6/0": true, ...}}`);
    /// - Home Assistant's diagnostics download (`{"data": {"node": {...}}}`);
    /// - a server's list of nodes (`{"nodes": [...]}` or `[...]`) holding exactly one node.
    ///
    /// Values of a Home Assistant file are typed by the model; one that does not fit its attribute's type is
    /// kept as recorded, with a warning in ``warnings``. Throws ``NodeDumpError`` naming where the file is
    /// wrong: not JSON, no `attributes`, a key that is not `endpoint/cluster/attribute`, a value that cannot
    /// be read at all.
    public static func read(json text: String) throws(NodeDumpError) -> NodeDump {
        let json: CLIJSON
        do {
            json = try CLIJSON.parse(text)
        } catch {
            throw NodeDumpError("the file", "not JSON: \(error)")
        }
        let (node, location) = try nodeObject(json)
        if case .string(let format)? = node.member("format") {
            guard format == nativeFormatName else {
                throw NodeDumpError("\(location)format", "unknown format \"\(format)\" (expected \(nativeFormatName))")
            }
            return try readNative(node, location: location)
        }
        return try readRecorded(node, location: location)
    }

    /// The node object inside a file, and where it is (a prefix for error locations).
    static func nodeObject(_ json: CLIJSON) throws(NodeDumpError) -> (CLIJSON, String) {
        if case .array(let nodes) = json { return try single(nodes, location: "") }
        guard case .object = json else { throw NodeDumpError("the file", "a JSON object expected") }
        if json.member("attributes") != nil { return (json, "") }
        if case .object? = json.member("data")?.member("node"), let node = json.member("data")?.member("node") {
            return (node, "data.node.")
        }
        if case .array(let nodes)? = json.member("nodes") { return try single(nodes, location: "nodes") }
        throw NodeDumpError(
            "the file",
            "no \"attributes\": expected a node (python-matter-server, matterjs-server, a Home Assistant fixture), "
                + "Home Assistant diagnostics (data.node) or a matter-emu node dump")
    }

    private static func single(_ nodes: [CLIJSON], location: String) throws(NodeDumpError) -> (CLIJSON, String) {
        guard nodes.count == 1, let node = nodes.first else {
            let ids = nodes.compactMap { $0.member("node_id").map(\.summary) }
            throw NodeDumpError(
                location.isEmpty ? "the file" : location,
                "holds \(nodes.count) nodes\(ids.isEmpty ? "" : " (\(ids.joined(separator: ", ")))"): "
                    + "save one node's object to its own file")
        }
        return (node, location + "[0].")
    }

    static func nodeID(_ node: CLIJSON, location: String) throws(NodeDumpError) -> UInt64? {
        switch node.member("node_id") {
        case nil, .null?: return nil
        case .number(let text)?:
            guard let id = UInt64(text) else { throw NodeDumpError("\(location)node_id", "\(text) is not a node ID") }
            return id
        case let other?: throw NodeDumpError("\(location)node_id", "\(other.summary) is not a node ID")
        }
    }

    static func attributeMembers(_ node: CLIJSON, location: String) throws(NodeDumpError)
        -> [(path: Path, key: String, value: CLIJSON)]
    {
        guard case .object(let pairs)? = node.member("attributes") else {
            throw NodeDumpError("\(location)attributes", "an object keyed \"endpoint/cluster/attribute\" expected")
        }
        var members: [(path: Path, key: String, value: CLIJSON)] = []
        var seen: Set<Path> = []
        for (key, value) in pairs {
            guard let path = Path(key: key) else {
                throw NodeDumpError(
                    "\(location)attributes[\"\(key)\"]", "not an \"endpoint/cluster/attribute\" path in decimal")
            }
            guard seen.insert(path).inserted else {
                throw NodeDumpError("\(location)attributes[\"\(key)\"]", "recorded twice")
            }
            members.append((path, key, value))
        }
        return members
    }

    /// A Home Assistant node: values typed by the model where it knows the attribute.
    static func readRecorded(_ node: CLIJSON, location: String) throws(NodeDumpError) -> NodeDump {
        var dump = NodeDump(attributes: [:], nodeID: try nodeID(node, location: location))
        for (path, key, json) in try attributeMembers(node, location: location) {
            let schema = attributeSchema(path)
            do {
                dump.attributes[path] = try RecordedJSON.decode(
                    json, as: schema?.type, nullable: schema?.isNullable ?? true)
            } catch {
                do {
                    dump.attributes[path] = try RecordedJSON.infer(json)
                } catch {
                    throw NodeDumpError("\(location)attributes[\"\(key)\"]", error.reason)
                }
                dump.warnings.append("\(key): \(error.reason); served as recorded")
            }
        }
        return dump
    }

    /// This project's dump: every value's TLV.
    static func readNative(_ node: CLIJSON, location: String) throws(NodeDumpError) -> NodeDump {
        if let version = node.member("version"), version != .number("1") {
            throw NodeDumpError("\(location)version", "version \(version.summary) is not known (this reads 1)")
        }
        var dump = NodeDump(attributes: [:], nodeID: try nodeID(node, location: location))
        for (path, key, json) in try attributeMembers(node, location: location) {
            let here = "\(location)attributes[\"\(key)\"]"
            guard case .string(let hex)? = json.member("tlv") else {
                throw NodeDumpError(here, "an object with \"tlv\" (the value's TLV in hex) expected")
            }
            guard let bytes = Hex.decode(hex) else { throw NodeDumpError(here + ".tlv", "not hexadecimal") }
            do {
                dump.attributes[path] = try TLVElement.decode(bytes).value
            } catch {
                throw NodeDumpError(here + ".tlv", "not one TLV element: \(error)")
            }
        }
        return dump
    }

    /// The model's schema of the attribute at `path`: the cluster's, or a global attribute's for any cluster.
    public static func attributeSchema(_ path: Path) -> AttributeSchema? {
        if let schema = ClusterRegistry.standard.cluster(path.cluster)?.attribute(path.attribute) { return schema }
        if path.attribute == .eventList { return AttributeSchema(.eventList, "EventList", .list(.uint32)) }
        return AttributeSchema.globals.first { $0.id == path.attribute }
    }
}

extension CLIJSON {
    /// The member `key` of an object (the first, if repeated), nil otherwise.
    func member(_ key: String) -> CLIJSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }
}
