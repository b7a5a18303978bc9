import Dispatch
import MatterTransport
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Wraps a device's transport and times the handling of each received datagram: the node decodes,
/// decrypts, handles, encrypts and answers on its queue inside the handler, so the handler's wall
/// time is the time the device spends on that message.
final class TimedTransport: DatagramTransport {
    struct Sample: Sendable {
        /// When the datagram was handed to the device, seconds since 1970.
        let received: Double
        /// How long the device's handler ran, seconds.
        let busy: Double
    }

    let inner: any DatagramTransport
    private let samples = Mutex<[Sample]>([])

    init(_ inner: any DatagramTransport) { self.inner = inner }

    var queue: DispatchQueue { inner.queue }
    var port: UInt16 { inner.port }

    func start(_ handler: @escaping @Sendable (Datagram) -> Void) {
        inner.start { [self] datagram in
            let received = unixTime()
            var start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            handler(datagram)
            var end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &end)
            let busy = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
            samples.withLock { $0.append(Sample(received: received, busy: busy)) }
        }
    }

    func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        try inner.send(bytes, to: destination)
    }

    func close() { inner.close() }

    /// Everything recorded so far.
    var recorded: [Sample] { samples.withLock { $0 } }
}
