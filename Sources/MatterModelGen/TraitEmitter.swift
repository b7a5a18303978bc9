import Foundation

/// Writes MatterHome's generated Swift (Sources/MatterHome/Generated): for every cluster of the model a Home
/// API trait `Matter.<Cluster>Trait` over the typed layer of MatterClusters (its datatypes under the Home
/// API's names, typed attributes with their live values, commands with typed fields and the optional ones in
/// the closure form, `update { $0.setX(...) }` for the writable attributes, its events), the `MatterTraits`
/// accessors, and a `<Name>DeviceType` for every device type.
struct TraitEmitter {
    let model: ModelFile
    let typed: TypedResolver
    let header: String

    init(model: ModelFile, resolver: TypeResolver, header: String) {
        self.model = model
        self.typed = TypedResolver(resolver: resolver)
        self.header = header
    }

    /// Member names a trait declares itself; a command or datatype of the same name gets a suffix.
    static let traitMembers: Set<String> = [
        "part", "attributes", "supports", "update", "forceRead", "clusterID", "supportedEventTypes",
        "supportedCommandTypes",
    ]
    static let traitTypes: Set<String> = ["Attributes", "Command", "Mutator", "Feature"]

    /// An identifier without the backticks of a keyword, to build other names from.
    static func bare(_ identifier: String) -> String { identifier.replacingOccurrences(of: "`", with: "") }

    /// Every file, by its path below Sources/MatterHome/Generated.
    func files() throws -> [String: String] {
        var files: [String: String] = [:]
        let clusters = model.clusters.filter { $0.id != nil }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        for cluster in clusters {
            let scope = SwiftEmitter.scope(of: cluster)
            files["Traits/\(scope.namespace)Trait.swift"] = try traitFile(cluster, scope: scope)
        }
        files["MatterTraits+Generated.swift"] = matterTraitsFile(clusters)
        files["DeviceTypes+Generated.swift"] = deviceTypesFile()
        return files
    }

    // MARK: - Device types and the trait accessors

    func matterTraitsFile(_ clusters: [ModelElement]) -> String {
        var out = header + "extension MatterTraits {\n"
        for cluster in clusters {
            let name = SwiftNames.upperCamel(cluster.name)
            out += "    /// \(cluster.name) (\(SwiftNames.hex(cluster.id ?? 0))), when the part has it.\n"
            out += "    public var \(Self.bare(SwiftNames.lowerCamel(name)))Trait: Matter.\(name)Trait? { "
            out += "traits[Matter.\(name)Trait.self] }\n"
        }
        return out + "}\n"
    }

    func deviceTypesFile() -> String {
        var out = header
        let deviceTypes = model.deviceTypes.filter { $0.id != nil }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        for deviceType in deviceTypes {
            let name = SwiftNames.upperCamel(deviceType.name)
            let clusters = deviceType.children("requirement").filter { $0.element == "serverCluster" }
                .compactMap { requirement in
                    model.clusters.first { $0.id == requirement.id && $0.id != nil }
                        .map { SwiftNames.upperCamel($0.name) }
                }
            out += "\n/// The Matter \(deviceType.name) device type (\(SwiftNames.hex(deviceType.id ?? 0))"
            out += ", class \(deviceType.classification ?? "simple")).\n"
            if !clusters.isEmpty {
                out += "/// Server clusters: \(clusters.joined(separator: ", ")).\n"
            }
            out += "public struct \(name)DeviceType: DeviceType {\n"
            out += "    public static let matterDeviceTypeID: UInt32 = \(SwiftNames.hex(deviceType.id ?? 0))\n"
            out += "    public let part: DevicePart\n\n"
            out += "    public init(part: DevicePart) { self.part = part }\n}\n"
        }
        return out
    }

    // MARK: - One trait

    struct Field {
        var member: String
        var type: SwiftType
        var optional: Bool

        /// The type a caller passes: a nullable value as a Swift optional.
        var presented: String {
            if case .nullable(let inner) = type { return inner.spelling + "?" }
            return type.spelling
        }

        /// The expression converting the presented parameter `name` to the typed field's value.
        func convert(_ name: String) -> String {
            if case .nullable = type { return "TLVNullable(\(name))" }
            return name
        }
    }

    /// The fields of a command as the typed layer declares them (its initializer's parameters).
    func fields(of command: ModelElement, scope: TypeResolver.Scope) throws -> [Field] {
        let fields = command.children("field").filter { $0.id != nil && $0.type != nil }
        return try TypedEmitter.members(of: fields, typed: typed, in: scope).map {
            Field(member: $0.name, type: $0.type, optional: $0.optional)
        }
    }

    func traitFile(_ cluster: ModelElement, scope: TypeResolver.Scope) throws -> String {
        let ns = "\(TypedResolver.root).\(scope.namespace)"
        let name = "\(scope.namespace)Trait"
        var out = header + "public import MatterClusters\nimport MatterCore\nimport MatterTLV\n\n"
        out += "extension Matter {\n"
        out += "    /// \(cluster.name) (\(SwiftNames.hex(cluster.id ?? 0))) as a Home API trait.\n"
        out += "    public struct \(name): Trait {\n"
        out += "        public static let clusterID: UInt32 = \(SwiftNames.hex(cluster.id ?? 0))\n"
        out += "        public let part: DevicePart\n\n"
        out += "        public init(part: DevicePart) { self.part = part }\n"

        // Datatypes under the trait's name.
        var typeNames: Set<String> = Self.traitTypes
        out += "\n        /// \(cluster.name)'s features (its FeatureMap).\n"
        out += "        public typealias Feature = \(ns).Feature\n"
        for datatype in cluster.children("datatype") where TypedResolver.declaresType(datatype) {
            let typeName = SwiftNames.upperCamel(datatype.name)
            guard typeNames.insert(typeName).inserted else { continue }
            out += "        public typealias \(typeName) = \(ns).\(typeName)\n"
        }
        let events = cluster.children("event").filter { $0.id != nil }
        var eventTypes: [String] = []
        for event in events {
            let typeName = TypedEmitter.typeName(event.name)
            guard typeNames.insert(typeName + "Event").inserted else { continue }
            out += "        /// The \(event.name) event.\n"
            out += "        public typealias \(typeName)Event = \(ns).Events.\(typeName)\n"
            eventTypes.append("\(ns).Events.\(typeName).self")
        }
        let commands = cluster.children("command").filter { $0.id != nil && $0.direction != "response" }
        out += "\n        /// The event types of the trait.\n"
        out += "        public static let supportedEventTypes: [any ClusterEvent.Type] = ["
        out += eventTypes.joined(separator: ", ") + "]\n"
        out += "        /// The command types of the trait (requests).\n"
        out += "        public static let supportedCommandTypes: [any ClusterCommand.Type] = ["
        out +=
            commands.map { "\(ns).Commands.\(TypedEmitter.typeName($0.name)).self" }.joined(separator: ", ") + "]\n"

        out += try attributesSource(cluster, scope: scope, ns: ns)
        out += try commandsSource(cluster, commands: commands, scope: scope, ns: ns, typeNames: &typeNames)
        out += try mutatorSource(cluster, scope: scope, ns: ns, trait: name)
        return out + "    }\n}\n"
    }

    /// How a group part shows the attribute: capability bounds merge to what every member reaches, settings
    /// and fixed facts show when the members agree, dynamic state is not shown.
    static func merge(_ attribute: ModelElement) -> String {
        let name = attribute.name
        func bound(_ word: String) -> Bool {
            guard let range = name.range(of: word) else { return false }
            return range.upperBound == name.endIndex || name[range.upperBound].isUppercase
        }
        if bound("Min") { return ".largest" }
        if bound("Max") { return ".smallest" }
        let access = Access(attribute.access)
        let fixed = Quality(attribute.quality).letters.contains("F")
        let facts = ["Capabilities", "Type", "Types"].contains { name.hasSuffix($0) }
        return access.writable || fixed || facts ? ".common" : ".dynamic"
    }

    func attributesSource(_ cluster: ModelElement, scope: TypeResolver.Scope, ns: String) throws -> String {
        let attributes = cluster.children("attribute").filter {
            ($0.id ?? 0) < 0xF000 && $0.id != nil && $0.type != nil
        }
        var out = "\n        /// The trait's attributes, with their live values.\n"
        out += "        public struct Attributes: Sendable {\n"
        var inits: [String] = []
        var used: Set<String> = ["featureMap", "clusterRevision"]
        for attribute in attributes {
            let member = SwiftNames.lowerCamel(attribute.name)
            guard used.insert(member).inserted else { continue }
            let type = try typed.type(of: attribute, in: scope)
            let typeName = TypedEmitter.typeName(attribute.name)
            var presented = type.spelling
            var label = ""
            if case .nullable(let inner) = type {
                presented = inner.spelling
                label = "nullable: "
            }
            out += "            /// \(attribute.name) (\(SwiftNames.hex(attribute.id ?? 0)))"
            out += Quality(attribute.quality).nullable ? ", nil when null.\n" : ".\n"
            out += "            @TraitAttribute<\(presented)> public var \(member): \(presented)?\n"
            inits.append(
                "_\(Self.bare(member)) = TraitAttribute(part, \(label)\(ns).Attributes.\(typeName).self, merge: "
                    + "\(Self.merge(attribute)))")
        }
        out += "            /// FeatureMap: the features the device implements.\n"
        out += "            @TraitAttribute<Feature> public var featureMap: Feature?\n"
        out += "            /// ClusterRevision.\n"
        out += "            @TraitAttribute<Swift.UInt16> public var clusterRevision: Swift.UInt16?\n\n"
        out += "            init(_ part: DevicePart) {\n"
        for line in inits { out += "                \(line)\n" }
        out += "                _featureMap = TraitAttribute(part, \(ns).id, global: .featureMap)\n"
        out += "                _clusterRevision = TraitAttribute(part, \(ns).id, global: .clusterRevision)\n"
        out += "            }\n        }\n\n"
        out += "        /// The attributes' live values.\n"
        out += "        public var attributes: Attributes { Attributes(part) }\n"
        return out
    }

    func commandsSource(
        _ cluster: ModelElement, commands: [ModelElement], scope: TypeResolver.Scope, ns: String,
        typeNames: inout Set<String>
    ) throws -> String {
        guard !commands.isEmpty else { return "" }
        var methodNames: Set<String> = Self.traitMembers
        var cases: [(name: String, id: String)] = []
        var out = ""
        var methods = ""
        for command in commands {
            let typeName = TypedEmitter.typeName(command.name)
            var method = SwiftNames.lowerCamel(command.name)
            if !methodNames.insert(method).inserted {
                method = SwiftNames.lowerCamel(command.name + "Command")
                methodNames.insert(method)
            }
            let caseName = method
            cases.append((caseName, "CommandID.\(scope.namespace).\(SwiftNames.lowerCamel(command.name))"))
            let fields = try fields(of: command, scope: scope)
            let required = fields.filter { !$0.optional }
            let optional = fields.filter(\.optional)
            var response = "Void"
            if let responseName = command.response, responseName != "status",
                cluster.children("command").contains(where: { $0.name == responseName && $0.direction == "response" })
            {
                response = "\(ns).Commands.\(TypedEmitter.typeName(responseName))"
            }
            var parameters = required.map { "\($0.member): \($0.presented)" }
            let arguments = fields.map { field in
                field.optional
                    ? "\(field.member): optional.\(field.member)" : "\(field.member): \(field.convert(field.member))"
            }
            var body = ""
            if !optional.isEmpty {
                var argsType = "\(typeName)OptionalArgs"
                if !typeNames.insert(argsType).inserted { argsType = "\(typeName)CommandOptionalArgs" }
                out += "\n        /// The optional fields of \(command.name), set in the closure of ``\(method)``.\n"
                out += "        public struct \(argsType): Sendable {\n"
                for field in optional {
                    out += "            var \(field.member): \(field.type.spelling)?\n"
                }
                out += "\n            public init() {}\n"
                for field in optional {
                    let setter = "set" + SwiftNames.upperCamel(Self.bare(field.member))
                    out += "            public mutating func \(setter)(_ value: \(field.presented)) { "
                    out += "\(field.member) = \(field.convert("value")) }\n"
                }
                out += "        }\n"
                parameters.append("optionalArgsProvider: (inout \(argsType)) -> Void = { _ in }")
                body += "            var optional = \(argsType)()\n            optionalArgsProvider(&optional)\n"
            }
            let value = "\(ns).Commands.\(typeName)(\(arguments.joined(separator: ", ")))"
            let call = "part.invoke(\(value))"
            methods += "\n        /// \(command.name)"
            methods += Access(command.access).timed ? " (a timed invoke).\n" : ".\n"
            if response == "Void" {
                methods +=
                    "        public func \(method)(\(parameters.joined(separator: ", "))) async throws(HomeError) {\n"
                methods += body + "            _ = try await \(call)\n        }\n"
            } else {
                methods += "        @discardableResult\n"
                methods +=
                    "        public func \(method)(\(parameters.joined(separator: ", "))) async throws(HomeError)"
                methods += " -> \(response) {\n"
                methods += body + "            return try await \(call)\n        }\n"
            }
            let batchResponse = response == "Void" ? "Void" : response
            let maker = response == "Void" ? "batchable" : "batchableWithResponse"
            methods += "\n        /// \(command.name) for ``Home/sendBatchedCommands(_:)``.\n"
            methods += "        public func \(Self.bare(method))Batchable(\(parameters.joined(separator: ", "))) -> "
            methods += "BatchableCommand<\(batchResponse)> {\n"
            methods += body + "            return part.\(maker)(\(value))\n        }\n"
        }
        var header = "\n        /// The commands of the trait, for ``supports(_:)``.\n"
        header += "        public enum Command: Sendable, Hashable, CaseIterable {\n"
        header += "            case " + cases.map(\.name).joined(separator: ", ") + "\n\n"
        header += "            var id: CommandID {\n                switch self {\n"
        for item in cases { header += "                case .\(item.name): \(item.id)\n" }
        header += "                }\n            }\n        }\n\n"
        header += "        /// True when the device (for a group part: any member) accepts `command`.\n"
        header += "        public func supports(_ command: Command) -> Bool { "
        header += "part.supports(\(ns).id, command.id) }\n"
        for item in cases {
            let bare = Self.bare(item.name)
            header += "        public var supports\(SwiftNames.upperCamel(bare))Command: Bool { "
            header += "supports(.\(item.name)) }\n"
        }
        return header + out + methods
    }

    func mutatorSource(_ cluster: ModelElement, scope: TypeResolver.Scope, ns: String, trait: String) throws
        -> String
    {
        let attributes = cluster.children("attribute").filter {
            ($0.id ?? 0) < 0xF000 && $0.id != nil && $0.type != nil && Access($0.access).writable
        }
        guard !attributes.isEmpty else { return "" }
        var out = "\n        /// The writable attributes, set in ``update(_:)``.\n"
        out += "        public struct Mutator: Sendable {\n            var writes = TraitWrites()\n\n"
        var used: Set<String> = []
        for attribute in attributes {
            let member = SwiftNames.lowerCamel(attribute.name)
            guard used.insert(member).inserted else { continue }
            let type = try typed.type(of: attribute, in: scope)
            let typeName = TypedEmitter.typeName(attribute.name)
            let field = Field(member: member, type: type, optional: false)
            let setter = "set" + SwiftNames.upperCamel(Self.bare(member))
            out += "            public mutating func \(setter)(_ value: \(field.presented)) {\n"
            out += "                writes.set(\(ns).Attributes.\(typeName).self, \(field.convert("value")))\n"
            out += "            }\n"
        }
        out += "        }\n\n"
        out += "        /// Writes the attributes `body` sets, in order; returns the trait.\n"
        out += "        /// - Throws: `invalidArgument` for an attribute the device does not have, or on a group part; "
        out += "the device's failure otherwise.\n"
        out += "        @discardableResult\n"
        out += "        public func update(_ body: (inout Mutator) -> Void) async throws(HomeError) -> \(trait) {\n"
        out += "            var mutator = Mutator()\n            body(&mutator)\n"
        out += "            try await part.write(\(ns).id, mutator.writes)\n            return self\n        }\n"
        return out
    }
}
