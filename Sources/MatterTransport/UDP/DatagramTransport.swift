public import Dispatch

/// Where a node's datagrams go: a real UDP socket, or an in-memory network in tests. Handlers run
/// on `queue`, the node's queue.
public protocol DatagramTransport: AnyObject, Sendable {
    var queue: DispatchQueue { get }
    /// The local port (or the in-memory endpoint's port).
    var port: UInt16 { get }
    func start(_ handler: @escaping @Sendable (Datagram) -> Void)
    func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError)
    /// Stops delivery; call on `queue`.
    func close()
    /// Receives, on `queue`, each destination the network reported closed (ICMP port unreachable)
    /// for a datagram sent to it. Transports that cannot tell never call it. Set before `start`.
    func onPortUnreachable(_ handler: @escaping @Sendable (UDPAddress) -> Void)
}

extension DatagramTransport {
    /// No reports (in-memory transports).
    package func onPortUnreachable(_ handler: @escaping @Sendable (UDPAddress) -> Void) {}
}

extension UDPEndpoint: DatagramTransport {}
