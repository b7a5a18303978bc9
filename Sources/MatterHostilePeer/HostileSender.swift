import Dispatch
import MatterTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The hostile peer's sockets: one main socket and `halfOpenSockets` more, each counting what the device
/// answers; sends pace themselves to a rate.
final class HostileSender: Sendable {
    private let endpoints: [UDPEndpoint]
    private let replyCount = ReplyCounter()
    private let queue = DispatchQueue(label: "matter-emu-hostile.receive")

    init(halfOpenSockets: Int) throws(SocketError) {
        var endpoints: [UDPEndpoint] = []
        for _ in 0...halfOpenSockets { endpoints.append(try UDPEndpoint(queue: queue)) }
        self.endpoints = endpoints
        for endpoint in endpoints {
            endpoint.start { [replyCount] _ in replyCount.value.add(1, ordering: .relaxed) }
        }
    }

    /// Datagrams the device sent back (answers, acknowledgements, retransmissions).
    var replies: Int { replyCount.value.load(ordering: .relaxed) }

    /// Sends, waiting out a full socket buffer (EAGAIN) a little. False when the datagram could not go.
    func send(_ bytes: [UInt8], socket: Int, to target: UDPAddress) -> Bool {
        let endpoint = endpoints[socket % endpoints.count]
        for _ in 0..<200 {
            do {
                try endpoint.send(bytes, to: target)
                return true
            } catch  where error.code == EAGAIN || error.code == ENOBUFS {
                usleep(500)
            } catch {
                return false
            }
        }
        return false
    }

    func close() {
        queue.sync { for endpoint in endpoints { endpoint.close() } }
    }
}

/// Datagrams received on any of the sender's sockets.
final class ReplyCounter: Sendable {
    let value = Atomic<Int>(0)
}
