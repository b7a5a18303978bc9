package import MatterTLV

/// CommandDataIB (structure): a command to invoke, or a response command.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | CommandPath | CommandPathIB |
/// | 1 | CommandFields | structure (always sent; empty `35 01 18` for no fields) |
/// | 2 | CommandRef | uint16, optional (batched invokes) |
package struct CommandDataIB: Hashable, Sendable {
    package var path: CommandPathIB
    /// The fields structure; an absent tag 1 decodes as an empty structure.
    package var fields: TLVValue
    package var commandRef: UInt16?

    package init(path: CommandPathIB, fields: TLVValue = .structure([]), commandRef: UInt16? = nil) {
        self.path = path
        self.fields = fields
        self.commandRef = commandRef
    }
}

extension CommandDataIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(fields, tag: .context(1))
            w.put(commandRef, tag: .context(2))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("CommandDataIB")
        path = try element.required(0)
        fields = element[context: 1]?.value ?? .structure([])
        commandRef = try element.optional(2)
    }
}

/// CommandStatusIB (structure): the status outcome of one command.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | CommandPath | CommandPathIB |
/// | 1 | Status | StatusIB |
/// | 2 | CommandRef | uint16, optional |
package struct CommandStatusIB: Hashable, Sendable {
    package var path: CommandPathIB
    package var status: StatusIB
    package var commandRef: UInt16?

    package init(path: CommandPathIB, status: StatusIB, commandRef: UInt16? = nil) {
        self.path = path
        self.status = status
        self.commandRef = commandRef
    }
}

extension CommandStatusIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(status, tag: .context(1))
            w.put(commandRef, tag: .context(2))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("CommandStatusIB")
        path = try element.required(0)
        status = try element.required(1)
        commandRef = try element.optional(2)
    }
}

/// InvokeResponseIB (structure): a response command or a status, for one invoked command.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Command | CommandDataIB |
/// | 1 | Status | CommandStatusIB |
package enum InvokeResponseIB: Hashable, Sendable {
    case command(CommandDataIB)
    case status(CommandStatusIB)

    /// The CommandRef echoed from the request.
    package var commandRef: UInt16? {
        switch self {
        case .command(let data): data.commandRef
        case .status(let status): status.commandRef
        }
    }
}

extension InvokeResponseIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            switch self {
            case .command(let data): w.put(data, tag: .context(0))
            case .status(let status): w.put(status, tag: .context(1))
            }
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("InvokeResponseIB")
        if let data: CommandDataIB = try element.optional(0) {
            self = .command(data)
        } else if let status: CommandStatusIB = try element.optional(1) {
            self = .status(status)
        } else {
            throw .invalidValue(tag: element.tag, reason: "InvokeResponseIB has neither command (0) nor status (1)")
        }
    }
}
