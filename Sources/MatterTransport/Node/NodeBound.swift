/// A value that belongs to one node: it can be reached only from that node's isolation, so an object
/// that is not `Sendable` (a data model, a root node, a responder) can be held by a `Sendable` facade
/// and used only where it lives, as NIO's `NIOLoopBound` binds a value to its event loop.
///
/// The compiler checks the isolation (``value(in:)`` takes the node as an `isolated` parameter); the
/// one thing it cannot check, that it is this value's node and not another one, is checked at run time.
///
/// ```swift
/// let bound = await node.run { node in NodeBound(DeviceDataModel(...), on: node) }
/// let label = await node.run { node in bound.value(in: node).nodeLabel }
/// ```
package struct NodeBound<Value>: @unchecked Sendable {
    // @unchecked: the value crosses threads only inside this box; it is handed out only in its
    // node's isolation (checked by the `isolated` parameter and the owner's identity).
    private let value: Value
    private let owner: ObjectIdentifier

    /// Binds `value`, made in `node`'s isolation, to that node.
    package init(_ value: Value, on node: isolated TransportNode) {
        self.value = value
        owner = ObjectIdentifier(node)
    }

    /// The value, in its node's isolation. Calling it from another node's isolation is a programming
    /// error and stops the process.
    package func value(in node: isolated TransportNode) -> Value {
        precondition(ObjectIdentifier(node) == owner, "a NodeBound value was reached from another node")
        return value
    }
}
