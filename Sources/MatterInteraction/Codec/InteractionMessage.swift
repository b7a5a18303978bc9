import MatterTLV

/// An interaction-model message: an anonymous TLV structure whose last member is
/// InteractionModelRevision (tag 0xFF).
///
/// Encoders write members in ascending tag order and always append revision 12. Decoders look members
/// up by tag, skip unknown ones, and accept any revision (the SDK sends 12, older ones 11).
package protocol InteractionMessage: Sendable {
    /// The message's opcode.
    static var opcode: InteractionOpcode { get }
    /// The TLV payload.
    func encode() -> [UInt8]
    /// Decodes a payload; throws ``InteractionError/malformed(message:reason:)``.
    init(decoding bytes: [UInt8]) throws(InteractionError)
}

/// The revision this implementation speaks (Matter 1.4).
package let interactionModelRevision: UInt8 = 12

/// Message bodies: members written by `body`, then the revision, inside the anonymous structure.
func encodeMessage(_ body: (inout TLVWriter) -> Void) -> [UInt8] {
    var writer = TLVWriter(capacity: 128)
    writer.putStructure { w in
        body(&w)
        w.put(interactionModelRevision, tag: .context(0xFF))
    }
    return writer.bytes
}

/// Parses the anonymous structure of a message and runs `decode` on it, mapping every TLV error to
/// ``InteractionError/malformed(message:reason:)``.
func decodeMessage<T>(_ bytes: [UInt8], _ name: String, _ decode: (TLVElement) throws(TLVError) -> T)
    throws(InteractionError) -> T
{
    do throws(TLVError) {
        let root = try TLVElement.decode(bytes)
        guard root.tag == .anonymous, case .structure = root.value else {
            throw TLVError.invalidValue(tag: root.tag, reason: "the message must be an anonymous structure")
        }
        return try decode(root)
    } catch {
        throw .malformed(message: name, reason: error.description)
    }
}
