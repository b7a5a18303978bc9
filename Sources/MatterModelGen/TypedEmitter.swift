/// Writes the typed layer of MatterClusters/Generated/Types: for every cluster, under `Clusters.<Cluster>`, its
/// features as an option set, its enums (Swift enums), bitmaps (option sets) and structs with TLV coding, and
/// one type per attribute, command and event.
struct TypedEmitter {
    let model: ModelFile
    let resolver: TypeResolver
    let typed: TypedResolver
    let header: String

    init(model: ModelFile, resolver: TypeResolver, header: String) {
        self.model = model
        self.resolver = resolver
        self.typed = TypedResolver(resolver: resolver)
        self.header = header
    }

    /// Names a nested type cannot take (`X.Type` is a metatype).
    static let reservedTypeNames: Set<String> = ["Type", "Protocol", "Self", "Any"]

    static func typeName(_ name: String) -> String {
        let out = SwiftNames.upperCamel(name)
        return reservedTypeNames.contains(out) ? out + "Attribute" : out
    }

    func files() throws -> [String: String] {
        var files: [String: String] = [:]
        var namespace =
            header
            + "/// The typed values of every cluster of Matter \(model.specification): one namespace per cluster "
        namespace +=
            "(`Clusters.OnOff`),\n/// with its features, enums, bitmaps, structs, attributes, commands and events.\n"
        namespace += "public enum \(TypedResolver.root) {}\n"
        files["Types/\(TypedResolver.root).swift"] = namespace
        for cluster in model.clusters {
            let scope = SwiftEmitter.scope(of: cluster)
            files["Types/Clusters+\(scope.namespace).swift"] = try clusterFile(cluster, scope: scope)
        }
        let global = TypeResolver.Scope(namespace: TypeResolver.globalNamespace, datatypes: [:])
        var out = header + "public import MatterTLV\n\nextension \(TypedResolver.root) {\n"
        out += "    /// The datatypes the specification declares outside any cluster.\n"
        out += "    public enum \(TypeResolver.globalNamespace) {\n"
        for datatype in model.datatypes where TypedResolver.declaresType(datatype) {
            out += try datatypeSource(datatype, scope: global)
        }
        files["Types/Clusters+\(TypeResolver.globalNamespace).swift"] = out + "    }\n}\n"
        files["Types/Clusters+Lookup.swift"] = lookupFile()
        return files
    }

    func clusterFile(_ cluster: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let name = scope.namespace
        let concrete = cluster.id != nil
        var out = "extension \(TypedResolver.root) {\n"
        if concrete {
            out += "    /// \(cluster.name) (\(SwiftNames.hex(cluster.id ?? 0))): its features, datatypes, attributes, "
            out += "commands and events.\n"
        } else {
            out += "    /// The datatypes of \(cluster.name), which other clusters are derived from.\n"
        }
        out += "    public enum \(name) {\n"
        var declared: Set<String> = []
        if concrete {
            out += "        /// \(cluster.name)'s cluster ID.\n"
            out += "        public static let id = ClusterID.\(SwiftNames.lowerCamel(cluster.name))\n\n"
            out += featureSource(cluster)
            declared.insert("Feature")
        }
        for datatype in cluster.children("datatype") where TypedResolver.declaresType(datatype) {
            let typeName = SwiftNames.upperCamel(datatype.name)
            guard declared.insert(typeName).inserted else {
                throw TypeResolver.Failure(description: "\(cluster.name) declares \(typeName) twice")
            }
            out += try datatypeSource(datatype, scope: scope)
        }
        if concrete {
            out += try attributesSource(cluster, scope: scope)
            out += try commandsSource(cluster, scope: scope)
            out += try eventsSource(cluster, scope: scope)
        }
        out += "    }\n}\n"
        var imports = ""
        if out.contains("ClusterID.") { imports += "public import MatterCore\n" }
        // Every declared type conforms to the TLV coding protocols (an enum through its raw value's).
        if out.contains(": Cluster") || out.contains(", ClusterEnum") { imports += "public import MatterTLV\n" }
        return header + imports + (imports.isEmpty ? "" : "\n") + out
    }

    // MARK: - Lookup by ID

    /// Switches from IDs to the typed attribute, request, response and event types, for layers that meet
    /// an ID on the wire and want its Swift type.
    func lookupFile() -> String {
        let clusters = model.clusters.filter { $0.id != nil }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        func table(
            _ function: String, _ doc: String, _ idType: String, _ protocolName: String, _ kind: String,
            _ elements: (ModelElement) -> [ModelElement]
        ) -> String {
            var out = "    /// \(doc)\n"
            out +=
                "    public static func \(function)(cluster: ClusterID, _ id: \(idType)) -> (any \(protocolName).Type)? {\n"
            out += "        switch cluster.rawValue {\n"
            for cluster in clusters {
                let items = elements(cluster)
                guard !items.isEmpty else { continue }
                let namespace = SwiftNames.upperCamel(cluster.name)
                out += "        case \(SwiftNames.hex(cluster.id ?? 0)):\n            switch id.rawValue {\n"
                var seen: Set<Int64> = []
                for item in items where seen.insert(item.id ?? 0).inserted {
                    out +=
                        "            case \(SwiftNames.hex(item.id ?? 0)): return \(TypedResolver.root).\(namespace)."
                    out += "\(kind).\(Self.typeName(item.name)).self\n"
                }
                out += "            default: return nil\n            }\n"
            }
            return out + "        default: return nil\n        }\n    }\n"
        }
        var out = header + "public import MatterCore\n\nextension \(TypedResolver.root) {\n"
        out += table(
            "attributeType", "The typed attribute of a cluster's attribute ID (global attributes excluded).",
            "AttributeID", "ClusterAttribute", "Attributes"
        ) { cluster in
            cluster.children("attribute").filter { ($0.id ?? 0) < 0xF000 && $0.id != nil && $0.type != nil }
        }
        out +=
            "\n"
            + table(
                "requestType", "The typed request of a cluster's command ID (client to server).", "CommandID",
                "ClusterCommand", "Commands"
            ) { cluster in cluster.children("command").filter { $0.id != nil && $0.direction != "response" } }
        out +=
            "\n"
            + table(
                "responseType", "The typed response of a cluster's command ID (server to client).", "CommandID",
                "ClusterCommand", "Commands"
            ) { cluster in cluster.children("command").filter { $0.id != nil && $0.direction == "response" } }
        out +=
            "\n"
            + table(
                "eventType", "The typed event of a cluster's event ID.", "EventID", "ClusterEvent", "Events"
            ) { cluster in cluster.children("event").filter { $0.id != nil } }
        return out + "}\n"
    }

    // MARK: - Features and datatypes

    func featureSource(_ cluster: ModelElement) -> String {
        let features = cluster.children("attribute").first { $0.id == 0xFFFC }?.children("field") ?? []
        var out = "        /// The features of \(cluster.name) (its FeatureMap).\n"
        out += "        public struct Feature: ClusterBitmap {\n"
        out += "            public let rawValue: Swift.UInt32\n"
        out += "            public init(rawValue: Swift.UInt32) { self.rawValue = rawValue }\n"
        var used: Set<String> = []
        for feature in features {
            guard let bit = Constraint(feature.constraint).min, bit >= 0, bit < 32 else { continue }
            var member = SwiftNames.lowerCamel(feature.title ?? feature.name)
            if !used.insert(member).inserted { member = SwiftNames.lowerCamel(feature.name) }
            out += "            /// \(feature.name): \(feature.title ?? feature.name).\n"
            out += "            public static let \(member) = Self(rawValue: \(SwiftNames.hex(1 << bit, digits: 1)))\n"
        }
        return out + "        }\n"
    }

    func datatypeSource(_ datatype: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let type = datatype.type ?? ""
        if let bits = TypeResolver.enumBits[type] { return enumSource(datatype, bits: bits) }
        if let bits = TypeResolver.bitmapBits[type] { return bitmapSource(datatype, bits: bits) }
        let fields = datatype.children("field").filter { $0.id != nil && $0.type != nil }
        return try structSource(
            name: SwiftNames.upperCamel(datatype.name), specName: datatype.name, fields: fields, scope: scope,
            conformance: "ClusterStruct", statics: [])
    }

    func enumSource(_ datatype: ModelElement, bits: Int) -> String {
        let raw = TypedResolver.unsignedSwift[bits] ?? "Swift.UInt16"
        var out = "\n        /// \(datatype.name).\n"
        out += "        public enum \(SwiftNames.upperCamel(datatype.name)): \(raw), ClusterEnum {\n"
        var used: Set<String> = []
        var values: Set<Int64> = []
        for value in datatype.children("field") {
            guard let id = value.id, values.insert(id).inserted else { continue }
            var member = SwiftNames.lowerCamel(value.name)
            if !used.insert(member).inserted {
                member = SwiftNames.lowerCamel(value.name + String(id))
                used.insert(member)
            }
            out += "            case \(member) = \(SwiftNames.hex(id, digits: 2))\n"
        }
        return out + "        }\n"
    }

    func bitmapSource(_ datatype: ModelElement, bits: Int) -> String {
        let raw = TypedResolver.unsignedSwift[bits] ?? "Swift.UInt64"
        var out = "\n        /// \(datatype.name).\n"
        out += "        public struct \(SwiftNames.upperCamel(datatype.name)): ClusterBitmap {\n"
        out += "            public let rawValue: \(raw)\n"
        out += "            public init(rawValue: \(raw)) { self.rawValue = rawValue }\n"
        var used: Set<String> = []
        for field in datatype.children("field") {
            let constraint = Constraint(field.constraint)
            guard let low = constraint.min else { continue }
            let high = constraint.max ?? low
            var mask: UInt64 = 0
            for bit in low...high where bit >= 0 && bit < Int64(bits) { mask |= UInt64(1) << UInt64(bit) }
            let member = SwiftNames.lowerCamel(field.name)
            guard mask != 0, used.insert(member).inserted else { continue }
            let hex = "0x" + String(mask, radix: 16, uppercase: true)
            if low != high { out += "            /// Bits \(low)...\(high).\n" }
            out += "            public static let \(member) = Self(rawValue: \(hex))\n"
        }
        return out + "        }\n"
    }

    /// A struct of `fields` with a memberwise initializer and its TLV coding, as a datatype, a command's
    /// payload or an event's.
    func structSource(
        name: String, specName: String, fields: [ModelElement], scope: TypeResolver.Scope, conformance: String,
        statics: [String], indent: String = "        "
    ) throws -> String {
        let members = try Self.members(of: fields, typed: typed, in: scope)
        let i = indent
        var out = "\n\(i)/// \(specName).\n\(i)public struct \(name): \(conformance) {\n"
        for line in statics { out += "\(i)    \(line)\n" }
        for member in members {
            out += "\(i)    /// \(member.spec) (tag \(member.tag))\(member.optional ? ", may be absent" : "").\n"
            out += "\(i)    public var \(member.name): \(member.type.spelling)\(member.optional ? "?" : "")\n"
        }
        let parameters = members.map { member in
            member.optional
                ? "\(member.name): \(member.type.spelling)? = nil" : "\(member.name): \(member.type.spelling)"
        }
        out += "\n\(i)    public init(\(parameters.joined(separator: ", "))) {\n"
        for member in members { out += "\(i)        self.\(member.name) = \(member.name)\n" }
        out += "\(i)    }\n\n"
        out += "\(i)    public func encode(to writer: inout TLVWriter, tag: TLVTag) {\n"
        out += "\(i)        writer.putStructure(tag: tag) { \(members.isEmpty ? "_" : "w") in\n"
        for member in members {
            let tag = ".context(\(member.tag))"
            if member.optional, !member.type.isCodable {
                out += "\(i)            if let value = self.\(member.name) { "
                out += member.type.encode("value", tag: tag, writer: "w", depth: 1) + " }\n"
            } else {
                out +=
                    "\(i)            " + member.type.encode("self.\(member.name)", tag: tag, writer: "w", depth: 1)
                    + "\n"
            }
        }
        out += "\(i)        }\n\(i)    }\n\n"
        out += "\(i)    public init(tlv element: TLVElement) throws(TLVError) {\n"
        let membersName = members.isEmpty ? "_" : "let members"
        out += "\(i)        \(membersName) = try ClusterCoding.members(of: element, \(SwiftNames.literal(specName)))\n"
        for member in members {
            let function = member.optional ? "optional" : "required"
            out += "\(i)        self.\(member.name) = try ClusterCoding.\(function)(members, \(member.tag), "
            out += "\(SwiftNames.literal(specName + "." + member.spec))) { (e: TLVElement) throws(TLVError) in "
            out += member.type.decode("e", depth: 1) + " }\n"
        }
        out += "\(i)    }\n\(i)}\n"
        return out
    }

    /// A field of a struct, a command's payload or an event's, as the typed layer declares it.
    struct Member {
        var name: String
        var tag: Int64
        var type: SwiftType
        var optional: Bool
        var spec: String
    }

    /// The members of a struct of `fields`: in tag order, a name taken twice kept once, optional when the
    /// conformance is not `M` (and the fabric index). The Home API's traits call the initializers these make.
    static func members(of fields: [ModelElement], typed: TypedResolver, in scope: TypeResolver.Scope) throws
        -> [Member]
    {
        var members: [Member] = []
        var used: Set<String> = []
        for field in fields.sorted(by: { ($0.id ?? 0) < ($1.id ?? 0) }) {
            let member = SwiftNames.lowerCamel(field.name)
            guard used.insert(member).inserted, let tag = field.id else { continue }
            let optional = tag == 0xFE || (field.conformance ?? "M") != "M"
            members.append(
                Member(
                    name: member, tag: tag, type: try typed.type(of: field, in: scope), optional: optional,
                    spec: field.name))
        }
        return members
    }

    // MARK: - Attributes, commands, events

    func attributesSource(_ cluster: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let attributes = cluster.children("attribute").filter {
            ($0.id ?? 0) < 0xF000 && $0.id != nil && $0.type != nil
        }
        guard !attributes.isEmpty else { return "" }
        let clusterName = SwiftNames.lowerCamel(cluster.name)
        var out = "\n        /// The attributes of \(cluster.name), each with the type of its value.\n"
        out += "        public enum Attributes {\n"
        for attribute in attributes {
            let type = try typed.type(of: attribute, in: scope)
            out += "            /// \(attribute.name) (\(SwiftNames.hex(attribute.id ?? 0))).\n"
            out += "            public enum \(Self.typeName(attribute.name)): ClusterAttribute {\n"
            out += "                public typealias Value = \(type.spelling)\n"
            out += "                public static let cluster = ClusterID.\(clusterName)\n"
            out += "                public static let id = AttributeID.\(scope.namespace)."
            out += "\(SwiftNames.lowerCamel(attribute.name))\n"
            // Values that code themselves use ClusterAttribute's default coding; lists are written here.
            if !type.isCodable {
                out += "                public static func decode(_ element: TLVElement) throws(TLVError) -> Value {\n"
                out += "                    \(type.decode("element", depth: 1))\n                }\n"
                out +=
                    "                public static func encode(_ value: Value, to writer: inout TLVWriter, tag: TLVTag) {\n"
                out += "                    \(type.encode("value", tag: "tag", writer: "writer", depth: 1))\n"
                out += "                }\n"
            }
            out += "            }\n"
        }
        return out + "        }\n"
    }

    func commandsSource(_ cluster: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let commands = cluster.children("command").filter { $0.id != nil }
        guard !commands.isEmpty else { return "" }
        let clusterName = SwiftNames.lowerCamel(cluster.name)
        var out = "\n        /// The commands of \(cluster.name), requests and responses, each with its fields.\n"
        out += "        public enum Commands {"
        for command in commands {
            var response = "DefaultSuccess"
            if let name = command.response, name != "status",
                commands.contains(where: { $0.name == name && $0.direction == "response" })
            {
                response = "\(TypedResolver.root).\(scope.namespace).Commands.\(Self.typeName(name))"
            }
            let statics = [
                "public typealias Response = \(response)",
                "public static let cluster = ClusterID.\(clusterName)",
                "public static let id = CommandID.\(scope.namespace).\(SwiftNames.lowerCamel(command.name))",
            ]
            out += try structSource(
                name: Self.typeName(command.name), specName: command.name,
                fields: command.children("field").filter { $0.id != nil && $0.type != nil }, scope: scope,
                conformance: "ClusterCommand", statics: statics, indent: "            ")
        }
        return out + "        }\n"
    }

    func eventsSource(_ cluster: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let events = cluster.children("event").filter { $0.id != nil }
        guard !events.isEmpty else { return "" }
        let clusterName = SwiftNames.lowerCamel(cluster.name)
        var out = "\n        /// The events of \(cluster.name), each with its fields.\n"
        out += "        public enum Events {"
        for event in events {
            let statics = [
                "public static let cluster = ClusterID.\(clusterName)",
                "public static let id = EventID.\(scope.namespace).\(SwiftNames.lowerCamel(event.name))",
            ]
            out += try structSource(
                name: Self.typeName(event.name), specName: event.name,
                fields: event.children("field").filter { $0.id != nil && $0.type != nil }, scope: scope,
                conformance: "ClusterEvent", statics: statics, indent: "            ")
        }
        return out + "        }\n"
    }
}
