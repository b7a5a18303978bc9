package import Dispatch
package import MatterCore

/// What runs on a node (the interaction server and client, the data model) gets of it, instead of a
/// reference to the ``TransportNode`` itself: the node's one ``NodeScheduler`` on its clock, its queue,
/// the view of its secure sessions, opening exchanges, and entering the node's isolation. Made by the
/// node (``TransportNode/context``); it holds the node weakly, so a stopped and dropped node has none.
package final class NodeContext: Sendable {
    /// The node's one timer source.
    package let scheduler: NodeScheduler
    /// The serial queue the node runs on (its scheduler fires there).
    package let queue: DispatchQueue
    private weak let node: TransportNode?

    init(node: TransportNode) {
        self.node = node
        scheduler = node.scheduler
        queue = node.queue
    }

    /// The node's clock (milliseconds).
    package var clock: any MatterClock { scheduler.clock }

    /// The node, to enter its isolation (`isolated TransportNode` parameters); throws
    /// ``TransportError/stopped`` once it is gone.
    package func requireNode() throws(TransportError) -> TransportNode {
        guard let node else { throw .stopped }
        return node
    }

    /// The parameters of a secure session, if it exists. Call on the node's queue.
    package func secureSession(_ session: SessionID) -> SecureSessionParameters? {
        node?.assumeIsolated { $0.secureSession(session) }
    }

    /// Opens an exchange this node initiates on `session`. Call on the node's queue.
    package func openExchange(on session: SessionID, protocolID: ProtocolID) throws(TransportError) -> Exchange {
        guard let node else { throw .stopped }
        let opened = node.assumeIsolated { node in
            Result { () throws(TransportError) in try node.openExchange(on: session, protocolID: protocolID) }
        }
        return try opened.get()
    }
}
