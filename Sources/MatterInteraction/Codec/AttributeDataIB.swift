package import MatterTLV

/// AttributeDataIB (structure): an attribute's value, in a report or a write.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | DataVersion | uint32 (always in reports; in writes only for a conditional write) |
/// | 1 | Path | AttributePathIB |
/// | 2 | Data | any TLV |
package struct AttributeDataIB: Hashable, Sendable {
    package var dataVersion: UInt32?
    package var path: AttributePathIB
    package var data: TLVValue

    package init(dataVersion: UInt32?, path: AttributePathIB, data: TLVValue) {
        self.dataVersion = dataVersion
        self.path = path
        self.data = data
    }
}

extension AttributeDataIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(dataVersion, tag: .context(0))
            w.put(path, tag: .context(1))
            w.put(data, tag: .context(2))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("AttributeDataIB")
        dataVersion = try element.optional(0)
        path = try element.required(1)
        guard let data = element[context: 2] else { throw .missingElement(tag: .context(2)) }
        self.data = data.value
    }
}

/// AttributeStatusIB (structure): the outcome for one attribute path.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Path | AttributePathIB |
/// | 1 | Status | StatusIB |
package struct AttributeStatusIB: Hashable, Sendable {
    package var path: AttributePathIB
    package var status: StatusIB

    package init(path: AttributePathIB, status: StatusIB) {
        self.path = path
        self.status = status
    }
}

extension AttributeStatusIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(status, tag: .context(1))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("AttributeStatusIB")
        path = try element.required(0)
        status = try element.required(1)
    }
}

/// AttributeReportIB (structure): either a status or data for one path.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | AttributeStatus | AttributeStatusIB |
/// | 1 | AttributeData | AttributeDataIB |
package enum AttributeReportIB: Hashable, Sendable {
    case status(AttributeStatusIB)
    case data(AttributeDataIB)

    /// The path the report is about.
    package var path: AttributePathIB {
        switch self {
        case .status(let status): status.path
        case .data(let data): data.path
        }
    }
}

extension AttributeReportIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            switch self {
            case .status(let status): w.put(status, tag: .context(0))
            case .data(let data): w.put(data, tag: .context(1))
            }
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("AttributeReportIB")
        if let data: AttributeDataIB = try element.optional(1) {
            self = .data(data)
        } else if let status: AttributeStatusIB = try element.optional(0) {
            self = .status(status)
        } else {
            throw .invalidValue(tag: element.tag, reason: "AttributeReportIB has neither status (0) nor data (1)")
        }
    }
}
