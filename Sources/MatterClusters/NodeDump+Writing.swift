import MatterCore
import MatterTLV

extension NodeDump {
    /// The dump as a file in `format`, paths in ascending order. `ha` is a node as python-matter-server keeps
    /// it (`node_id`, `date_commissioned`, `last_interview` (`recordedAt`, ISO 8601), `interview_version`,
    /// `available`, `is_bridge`, `attributes`, `attribute_subscriptions`); `native` adds each value's TLV.
    public func json(_ format: NodeDumpFormat, recordedAt: String) -> String {
        let paths = attributes.keys.sorted()
        var lines: [String] = []
        for (index, path) in paths.enumerated() {
            guard let value = attributes[path] else { continue }
            let comma = index + 1 < paths.count ? "," : ""
            switch format {
            case .ha:
                lines.append("    \"\(path)\": \(RecordedJSON.encode(value))\(comma)")
            case .native:
                let schema = Self.attributeSchema(path)
                let readable = ClusterValueCodec.format(value, as: schema?.type)
                let tlv = Hex.encode(TLVElement(value).encoded())
                lines.append("    \"\(path)\": {\"tlv\": \"\(tlv)\", \"value\": \(readable)}\(comma)")
            }
        }
        let node = nodeID.map(String.init) ?? "null"
        let header: [String]
        switch format {
        case .ha:
            header = [
                "  \"node_id\": \(node),",
                "  \"date_commissioned\": \(ClusterValueCodec.quoted(recordedAt)),",
                "  \"last_interview\": \(ClusterValueCodec.quoted(recordedAt)),",
                "  \"interview_version\": 6,",
                "  \"available\": true,",
                "  \"is_bridge\": \(isBridge),",
                "  \"attribute_subscriptions\": [],",
            ]
        case .native:
            header = [
                "  \"format\": \"\(Self.nativeFormatName)\",",
                "  \"version\": 1,",
                "  \"node_id\": \(node),",
                "  \"recorded_at\": \(ClusterValueCodec.quoted(recordedAt)),",
            ]
        }
        return "{\n" + header.joined(separator: "\n") + "\n  \"attributes\": {\n" + lines.joined(separator: "\n")
            + "\n  }\n}\n"
    }

    /// True when an endpoint has the Aggregator device type (0x000E), as python-matter-server's `is_bridge`.
    public var isBridge: Bool {
        for endpoint in endpoints {
            guard case .array(let types)? = value(endpoint, .descriptor, .Descriptor.deviceTypeList) else { continue }
            if types.contains(where: { $0[context: 0]?.uint == 0x000E }) { return true }
        }
        return false
    }
}
