public import MatterCore

/// A named set of (node, endpoint) pairs that commands fan out to.
public struct ControllerGroup: Sendable, Equatable {
    /// The group's name, unique among nodes and groups (full Unicode case folding).
    public var name: String
    /// The members, ordered by node ID then endpoint.
    public var members: [Member]

    public init(name: String, members: [Member] = []) {
        self.name = name
        self.members = members
    }

    /// One endpoint of one node in a group.
    public struct Member: Sendable, Hashable {
        /// The member node.
        public var nodeID: NodeID
        /// The endpoint of that node that commands go to.
        public var endpoint: EndpointID

        public init(nodeID: NodeID, endpoint: EndpointID) {
            self.nodeID = nodeID
            self.endpoint = endpoint
        }
    }
}
