import MatterClusters
import MatterCore
import MatterTLV

/// The attribute writes a trait's `Mutator` collects in `update { ... }`, as typed values turned into TLV.
struct TraitWrites: Sendable {
    private(set) var items: [(AttributeID, TLVValue)] = []
    /// A value that could not be written as TLV (never expected: the typed layer writes its own values).
    private(set) var failure: String?

    mutating func set<A: ClusterAttribute>(_ attribute: A.Type, _ value: A.Value) {
        var writer = TLVWriter()
        A.encode(value, to: &writer, tag: .anonymous)
        do {
            items.append((A.id, try TLVElement.decode(writer.bytes).value))
        } catch {
            failure = "\(A.self): \(error)"
        }
    }
}

extension ClusterStruct {
    /// The structure's members, as a command's fields.
    func fieldElements() throws(HomeError) -> [TLVElement] {
        var writer = TLVWriter()
        encode(to: &writer, tag: .anonymous)
        let element: TLVElement
        do {
            element = try TLVElement.decode(writer.bytes)
        } catch {
            throw HomeError(.internalFailure, "\(Self.self) cannot be written: \(error)")
        }
        guard case .structure(let members) = element.value else {
            throw HomeError(.internalFailure, "\(Self.self) is not written as a structure")
        }
        return members
    }
}
