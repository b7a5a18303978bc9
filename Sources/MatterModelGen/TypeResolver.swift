/// Resolves a type named in the model (a primitive, a global semantic type, a cluster's enum, bitmap or struct)
/// to the Swift source of its `ClusterDataType`.
struct TypeResolver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Global datatypes by name.
    let globals: [String: ModelElement]
    /// Every cluster's datatypes, by cluster name (for `OtherCluster.SomeStruct` references).
    let clusterScopes: [String: Scope]

    static let unsignedBits: [String: Int] = [
        "uint8": 8, "uint16": 16, "uint24": 24, "uint32": 32, "uint40": 40, "uint48": 48, "uint56": 56, "uint64": 64,
    ]
    static let signedBits: [String: Int] = [
        "int8": 8, "int16": 16, "int24": 24, "int32": 32, "int40": 40, "int48": 48, "int56": 56, "int64": 64,
    ]
    static let bitmapBits: [String: Int] = ["map8": 8, "map16": 16, "map32": 32, "map64": 64]
    static let enumBits: [String: Int] = ["enum8": 8, "enum16": 16]
    /// Names the model uses for types that have no datatype element of their own.
    static let aliases: [String: String] = [
        "FabricIndex": "uint8", "ClusterRevision": "uint16", "FeatureMap": "map32", "duration": "uint32",
        "any": "octstr",
    ]

    /// Where a datatype is declared: in a cluster (its Swift namespace) or among the globals.
    struct Scope {
        var namespace: String
        var datatypes: [String: ModelElement]
    }

    static let globalNamespace = "Global"

    /// The source of the type of `element` (an attribute, a field or a list entry) declared in `scope`.
    func source(of element: ModelElement, in scope: Scope, depth: Int = 0) throws -> String {
        guard let type = element.type else {
            throw Failure(description: "\(element.tag) \(element.name) has no type")
        }
        return try source(
            type: type, constraint: Constraint(element.constraint), element: element, in: scope, depth: depth)
    }

    func source(type: String, constraint: Constraint, element: ModelElement?, in scope: Scope, depth: Int = 0)
        throws -> String
    {
        guard depth < 16 else { throw Failure(description: "type \(type) refers to itself") }
        let type = Self.aliases[type] ?? type
        if type == "bool" { return ".boolean" }
        if let bits = Self.unsignedBits[type] { return ".unsigned(bits: \(bits))" }
        if let bits = Self.signedBits[type] { return ".signed(bits: \(bits))" }
        if let bits = Self.enumBits[type] { return ".enumeration(bits: \(bits))" }
        if let bits = Self.bitmapBits[type] { return ".bitmap(bits: \(bits))" }
        if type == "single" { return ".float" }
        if type == "double" { return ".double" }
        if type == "string" { return ".string(maxLength: \(constraint.max.map(String.init) ?? "nil"))" }
        if type == "octstr" { return ".octets(maxLength: \(constraint.max.map(String.init) ?? "nil"))" }
        if type == "struct", let element, !element.children("field").isEmpty {
            // An anonymous structure declared in place (a list entry of Thermostat's AtomicResponse).
            var fields: [String] = []
            for field in element.children("field") where field.id != nil && field.type != nil {
                var text = "FieldSchema(\(field.id ?? 0), \(SwiftNames.literal(field.name)), "
                text += try source(of: field, in: scope, depth: depth + 1)
                if (field.conformance ?? "M") != "M" { text += ", optional: true" }
                if Quality(field.quality).nullable { text += ", nullable: true" }
                fields.append(text + ")")
            }
            return ".structure(StructSchema(\(SwiftNames.literal(element.name)), [\(fields.joined(separator: ", "))]))"
        }
        if type == "list" {
            guard let entry = element?.children.first(where: { $0.tag == "field" && $0.name == "entry" }),
                let entryType = entry.type
            else {
                throw Failure(description: "list \(element?.name ?? "?") has no entry type")
            }
            let entryConstraint = Constraint(constraint.entry ?? entry.constraint)
            let inner = try source(
                type: entryType, constraint: entryConstraint, element: entry, in: scope, depth: depth + 1)
            return ".list(\(inner))"
        }
        if let dot = type.firstIndex(of: "."), let other = clusterScopes[String(type[..<dot])] {
            let name = String(type[type.index(after: dot)...])
            if let datatype = other.datatypes[name] {
                return try named(datatype, constraint: constraint, in: other, depth: depth)
            }
        }
        if let local = scope.datatypes[type] {
            return try named(local, constraint: constraint, in: scope, depth: depth)
        }
        if let global = globals[type] {
            return try named(
                global, constraint: constraint, in: Scope(namespace: Self.globalNamespace, datatypes: [:]),
                depth: depth)
        }
        throw Failure(description: "unknown type \(type) in \(scope.namespace)")
    }

    private func named(_ datatype: ModelElement, constraint: Constraint, in scope: Scope, depth: Int) throws -> String {
        guard let base = datatype.type, base != datatype.name else {
            throw Failure(description: "datatype \(datatype.name) has no base type")
        }
        if base == "struct" {
            return ".structure(StructSchema.\(scope.namespace).\(SwiftNames.lowerCamel(datatype.name)))"
        }
        return try source(type: base, constraint: constraint, element: datatype, in: scope, depth: depth + 1)
    }

    /// The spec's name of a named (non-primitive) type, or nil for primitives and lists.
    func typeName(of element: ModelElement) -> String? {
        guard let type = element.type, type != "list" else {
            return element.children.first { $0.name == "entry" }.flatMap { typeName(of: $0) }
        }
        let primitive =
            Self.unsignedBits[type] != nil || Self.signedBits[type] != nil || Self.bitmapBits[type] != nil
            || Self.enumBits[type] != nil || ["bool", "single", "double", "string", "octstr"].contains(type)
        return primitive ? nil : type
    }
}
