/// Resolves a type named in the model to its Swift type in the typed layer (`Clusters.<Cluster>.<Type>`,
/// `Clusters.Global.<Type>`, a Swift number, string or byte array).
struct TypedResolver {
    let resolver: TypeResolver

    /// The namespace every generated cluster type lives in.
    static let root = "Clusters"

    static let unsignedSwift: [Int: String] = [
        8: "Swift.UInt8", 16: "Swift.UInt16", 24: "Swift.UInt32", 32: "Swift.UInt32", 40: "Swift.UInt64",
        48: "Swift.UInt64", 56: "Swift.UInt64", 64: "Swift.UInt64",
    ]
    static let signedSwift: [Int: String] = [
        8: "Swift.Int8", 16: "Swift.Int16", 24: "Swift.Int32", 32: "Swift.Int32", 40: "Swift.Int64",
        48: "Swift.Int64", 56: "Swift.Int64", 64: "Swift.Int64",
    ]

    /// The Swift type of `element` (an attribute, a field, an event field), nullable when its quality says so.
    func type(of element: ModelElement, in scope: TypeResolver.Scope) throws -> SwiftType {
        guard let type = element.type else {
            throw TypeResolver.Failure(description: "\(element.tag) \(element.name) has no type")
        }
        let base = try resolve(type, element: element, in: scope, depth: 0)
        return Quality(element.quality).nullable ? .nullable(base) : base
    }

    func resolve(_ name: String, element: ModelElement?, in scope: TypeResolver.Scope, depth: Int) throws -> SwiftType {
        guard depth < 16 else { throw TypeResolver.Failure(description: "type \(name) refers to itself") }
        let type = TypeResolver.aliases[name] ?? name
        if type == "bool" { return .scalar("Swift.Bool") }
        if let bits = TypeResolver.unsignedBits[type] { return .scalar(Self.unsignedSwift[bits] ?? "Swift.UInt64") }
        if let bits = TypeResolver.signedBits[type] { return .scalar(Self.signedSwift[bits] ?? "Swift.Int64") }
        if let bits = TypeResolver.enumBits[type] { return .scalar(Self.unsignedSwift[bits] ?? "Swift.UInt16") }
        if let bits = TypeResolver.bitmapBits[type] { return .scalar(Self.unsignedSwift[bits] ?? "Swift.UInt64") }
        if type == "single" { return .scalar("Swift.Float") }
        if type == "double" { return .scalar("Swift.Double") }
        if type == "string" { return .scalar("Swift.String") }
        if type == "octstr" { return .scalar("[Swift.UInt8]") }
        // A structure declared in place (a list entry of Thermostat's AtomicResponse) stays a TLV tree.
        if type == "struct" { return .scalar("TLVElement") }
        if type == "list" {
            guard let entry = element?.children.first(where: { $0.tag == "field" && $0.name == "entry" }),
                let entryType = entry.type
            else {
                throw TypeResolver.Failure(description: "list \(element?.name ?? "?") has no entry type")
            }
            let inner = try resolve(entryType, element: entry, in: scope, depth: depth + 1)
            return .list(Quality(entry.quality).nullable ? .nullable(inner) : inner)
        }
        if let dot = type.firstIndex(of: "."), let other = resolver.clusterScopes[String(type[..<dot])] {
            let local = String(type[type.index(after: dot)...])
            if let datatype = other.datatypes[local] {
                return try named(datatype, in: other, depth: depth)
            }
        }
        if let local = scope.datatypes[type] { return try named(local, in: scope, depth: depth) }
        if let global = resolver.globals[type] {
            return try named(
                global, in: TypeResolver.Scope(namespace: TypeResolver.globalNamespace, datatypes: [:]), depth: depth)
        }
        throw TypeResolver.Failure(description: "unknown type \(type) in \(scope.namespace)")
    }

    private func named(_ datatype: ModelElement, in scope: TypeResolver.Scope, depth: Int) throws -> SwiftType {
        guard let base = datatype.type, base != datatype.name else {
            throw TypeResolver.Failure(description: "datatype \(datatype.name) has no base type")
        }
        if Self.declaresType(datatype) {
            return .scalar("\(Self.root).\(scope.namespace).\(SwiftNames.upperCamel(datatype.name))")
        }
        return try resolve(base, element: datatype, in: scope, depth: depth + 1)
    }

    /// True for the datatypes the typed layer declares a Swift type for: structs, and enums and bitmaps that
    /// name at least one value.
    static func declaresType(_ datatype: ModelElement) -> Bool {
        let type = datatype.type ?? ""
        if type == "struct" { return true }
        if TypeResolver.enumBits[type] != nil { return datatype.children("field").contains { $0.id != nil } }
        if TypeResolver.bitmapBits[type] != nil {
            return datatype.children("field").contains { Constraint($0.constraint).min != nil }
        }
        return false
    }
}
