package import MatterTLV

/// EventDataIB (structure): one event record.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Path | EventPathIB |
/// | 1 | EventNumber | uint64 |
/// | 2 | Priority | uint8 (0 debug, 1 info, 2 critical) |
/// | 3 / 4 / 5 / 6 | EpochTimestamp / SystemTimestamp / DeltaEpochTimestamp / DeltaSystemTimestamp | uint64 ms, one of |
/// | 7 | Data | any TLV |
package struct EventDataIB: Hashable, Sendable {
    /// When the event happened.
    package enum Timestamp: Hashable, Sendable {
        /// Milliseconds since the Unix epoch (tag 3).
        case epoch(UInt64)
        /// Milliseconds since boot (tag 4).
        case system(UInt64)
        /// Milliseconds after the previous event's epoch timestamp (tag 5).
        case deltaEpoch(UInt64)
        /// Milliseconds after the previous event's system timestamp (tag 6).
        case deltaSystem(UInt64)
    }

    package var path: EventPathIB
    package var eventNumber: UInt64
    package var priority: UInt8
    package var timestamp: Timestamp
    package var data: TLVValue?

    package init(path: EventPathIB, eventNumber: UInt64, priority: UInt8, timestamp: Timestamp, data: TLVValue?) {
        self.path = path
        self.eventNumber = eventNumber
        self.priority = priority
        self.timestamp = timestamp
        self.data = data
    }
}

extension EventDataIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(eventNumber, tag: .context(1))
            w.put(priority, tag: .context(2))
            switch timestamp {
            case .epoch(let ms): w.put(ms, tag: .context(3))
            case .system(let ms): w.put(ms, tag: .context(4))
            case .deltaEpoch(let ms): w.put(ms, tag: .context(5))
            case .deltaSystem(let ms): w.put(ms, tag: .context(6))
            }
            w.put(data, tag: .context(7))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("EventDataIB")
        path = try element.required(0)
        eventNumber = try element.required(1)
        priority = try element.required(2)
        if let ms: UInt64 = try element.optional(3) {
            timestamp = .epoch(ms)
        } else if let ms: UInt64 = try element.optional(4) {
            timestamp = .system(ms)
        } else if let ms: UInt64 = try element.optional(5) {
            timestamp = .deltaEpoch(ms)
        } else if let ms: UInt64 = try element.optional(6) {
            timestamp = .deltaSystem(ms)
        } else {
            throw .invalidValue(tag: element.tag, reason: "EventDataIB has no timestamp (tags 3-6)")
        }
        data = element[context: 7]?.value
    }
}

/// EventStatusIB (structure): the outcome for one event path.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | Path | EventPathIB |
/// | 1 | Status | StatusIB |
package struct EventStatusIB: Hashable, Sendable {
    package var path: EventPathIB
    package var status: StatusIB

    package init(path: EventPathIB, status: StatusIB) {
        self.path = path
        self.status = status
    }
}

extension EventStatusIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            w.put(path, tag: .context(0))
            w.put(status, tag: .context(1))
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("EventStatusIB")
        path = try element.required(0)
        status = try element.required(1)
    }
}

/// EventReportIB (structure): either a status or an event for one path.
///
/// | tag | field | type |
/// |---|---|---|
/// | 0 | EventStatus | EventStatusIB |
/// | 1 | EventData | EventDataIB |
package enum EventReportIB: Hashable, Sendable {
    case status(EventStatusIB)
    case data(EventDataIB)
}

extension EventReportIB: TLVEncodable, TLVDecodable {
    package func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            switch self {
            case .status(let status): w.put(status, tag: .context(0))
            case .data(let data): w.put(data, tag: .context(1))
            }
        }
    }

    package init(tlv element: TLVElement) throws(TLVError) {
        _ = try element.ibMembers("EventReportIB")
        if let data: EventDataIB = try element.optional(1) {
            self = .data(data)
        } else if let status: EventStatusIB = try element.optional(0) {
            self = .status(status)
        } else {
            throw .invalidValue(tag: element.tag, reason: "EventReportIB has neither status (0) nor data (1)")
        }
    }
}
