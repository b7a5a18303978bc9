import MatterCore
import MatterInteraction
import MatterTLV

/// Small helpers to build and read TLV values of cluster structures.
enum Field {
    static func structure(_ members: [(UInt8, TLVValue?)]) -> TLVValue {
        .structure(members.compactMap { tag, value in value.map { TLVElement(tag: .context(tag), $0) } })
    }

    static func uint<T: UnsignedInteger>(_ value: T) -> TLVValue { .unsigned(UInt64(value)) }

    static func required<T: TLVDecodable>(_ fields: TLVElement, _ tag: UInt8, as _: T.Type = T.self) throws(StatusIB)
        -> T
    {
        guard let member = fields[context: tag] else { throw StatusIB(.invalidCommand) }
        do {
            return try T(tlv: member)
        } catch {
            throw StatusIB(.invalidCommand)
        }
    }

    static func optional<T: TLVDecodable>(_ fields: TLVElement, _ tag: UInt8, as _: T.Type = T.self) throws(StatusIB)
        -> T?
    {
        guard let member = fields[context: tag] else { return nil }
        if case .null = member.value { return nil }
        do {
            return try T(tlv: member)
        } catch {
            throw StatusIB(.invalidCommand)
        }
    }

    /// A response command with `members`.
    static func response(_ command: CommandID, _ members: [(UInt8, TLVValue?)]) -> CommandResponse {
        CommandResponse(command: command, fields: structure(members))
    }
}
