/// Counters of the interactions peers started with a node's server, by the request that opened them (a
/// timed write or invoke counts as a timed request and a write or invoke).
public struct InteractionStatistics: Equatable, Sendable, CustomStringConvertible {
    public var readRequests = 0
    public var subscribeRequests = 0
    public var writeRequests = 0
    public var invokeRequests = 0
    public var timedRequests = 0

    public init() {}

    public var description: String {
        "reads \(readRequests), subscribes \(subscribeRequests), writes \(writeRequests), invokes \(invokeRequests), "
            + "timed \(timedRequests)"
    }
}
