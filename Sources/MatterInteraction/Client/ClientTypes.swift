public import MatterCore
public import MatterTLV
package import MatterTransport

/// One attribute in a read or subscription result: its value (lists reassembled from chunks) or the
/// status the server reported for it.
public struct AttributeReport: Hashable, Sendable {
    public var path: ConcreteAttributePath
    /// The cluster instance's data version (absent for statuses).
    public var dataVersion: UInt32?
    public var result: Result<TLVValue, StatusIB>

    public init(path: ConcreteAttributePath, dataVersion: UInt32?, result: Result<TLVValue, StatusIB>) {
        self.path = path
        self.dataVersion = dataVersion
        self.result = result
    }

    /// The value, or nil for a status.
    public var value: TLVValue? { try? result.get() }
    /// The status, or nil for a value.
    public var status: StatusIB? {
        if case .failure(let status) = result { status } else { nil }
    }
}

/// What a read (or one subscription report) returned.
public struct ReadResult: Hashable, Sendable {
    /// Attributes in the order the server first reported them.
    public var attributes: [AttributeReport]
    /// Event reports as received.
    package var events: [EventReportIB]

    package init(attributes: [AttributeReport] = [], events: [EventReportIB] = []) {
        self.attributes = attributes
        self.events = events
    }

    /// The report for `path`, if any.
    public func report(for path: ConcreteAttributePath) -> AttributeReport? { attributes.first { $0.path == path } }

    /// True when nothing was reported (a subscription keep-alive).
    public var isEmpty: Bool { attributes.isEmpty && events.isEmpty }
}

/// One attribute value to write.
package struct WriteItem: Hashable, Sendable {
    package var path: ConcreteAttributePath
    package var value: TLVValue
    /// Write only if the cluster instance still has this data version.
    package var dataVersion: UInt32?

    package init(path: ConcreteAttributePath, value: TLVValue, dataVersion: UInt32? = nil) {
        self.path = path
        self.value = value
        self.dataVersion = dataVersion
    }
}

/// The outcome of one ``WriteItem``.
package struct WriteResult: Hashable, Sendable {
    package var path: ConcreteAttributePath
    /// SUCCESS, or the first failure the server reported for the item (a list sent in pieces has one
    /// status per piece).
    package var status: StatusIB

    package init(path: ConcreteAttributePath, status: StatusIB) {
        self.path = path
        self.status = status
    }
}

/// One command to invoke.
public struct CommandRequest: Hashable, Sendable {
    public var path: ConcreteCommandPath
    /// The CommandFields structure (empty by default).
    public var fields: TLVValue

    public init(path: ConcreteCommandPath, fields: TLVValue = .structure([])) {
        self.path = path
        self.fields = fields
    }
}

/// The outcome of one ``CommandRequest``.
public enum InvokeResult: Hashable, Sendable {
    /// A CommandStatusIB (SUCCESS for commands answered with a status).
    case status(StatusIB)
    /// A response command and its fields.
    case response(command: CommandID, fields: TLVValue)

    /// True for SUCCESS or a response command.
    public var isSuccess: Bool {
        switch self {
        case .status(let status): status.isSuccess
        case .response: true
        }
    }
}

/// A subscription this client holds.
public struct ClientSubscription: Hashable, Sendable {
    public let id: UInt32
    package let session: SessionID
    /// The MaxInterval the server chose, seconds: a report (possibly empty) comes at least this often.
    public let maxInterval: UInt16
    /// The priming report (not passed to the report handler).
    public let priming: ReadResult
}

/// One report of a subscription after priming.
public struct SubscriptionReport: Hashable, Sendable {
    public let subscriptionID: UInt32
    public let result: ReadResult
}
