import MatterClusters
import MatterCore
import MatterInteraction
import MatterTLV

// The behaviours' typed values: a command's fields read as the generated request type, a list attribute's entries
// as its generated struct, a response written from its generated type.

/// The command's fields as its typed request; a malformed one is INVALID_COMMAND.
func decode<T: TLVDecodable>(_ type: T.Type, _ fields: CommandFields) throws(StatusIB) -> T {
    do {
        return try T(tlv: fields.element)
    } catch {
        throw StatusIB(.invalidCommand)
    }
}

/// The list attribute's entries, typed.
func list<T: TLVDecodable>(_ type: T.Type, _ server: GenericClusterServer, _ attribute: AttributeID)
    throws(StatusIB) -> [T]
{
    guard case .array(let entries)? = server.value(attribute) else { return [] }
    var result: [T] = []
    for entry in entries {
        do {
            result.append(try T(tlv: entry))
        } catch {
            throw StatusIB(.failure)
        }
    }
    return result
}

/// Stores typed entries as the list attribute's value.
func store<T: TLVEncodable>(_ entries: [T], _ server: GenericClusterServer, _ attribute: AttributeID)
    throws(StatusIB)
{
    try server.set(attribute, try encoded(list: entries))
}

/// A response command's fields.
func respond<T: ClusterCommand>(_ response: T) throws(StatusIB) -> CommandResponse {
    CommandResponse(command: T.id, fields: try encoded(response))
}

func encoded<T: TLVEncodable>(_ value: T) throws(StatusIB) -> TLVValue {
    var writer = TLVWriter()
    value.encode(to: &writer, tag: .anonymous)
    do {
        return try TLVElement.decode(writer.bytes).value
    } catch {
        throw StatusIB(.failure)
    }
}

/// Typed entries as a list value.
func encoded<T: TLVEncodable>(list entries: [T]) throws(StatusIB) -> TLVValue {
    var values: [TLVElement] = []
    for entry in entries { values.append(TLVElement(try encoded(entry))) }
    return .array(values)
}
