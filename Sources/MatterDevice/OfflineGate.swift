import Dispatch
import MatterTransport
import Synchronization

/// The device's network switch for the control plane's `offline`/`online`: while offline, datagrams
/// in and out are dropped, as if the device's cable were pulled (its sessions stay; peers time out).
final class OfflineGate: DatagramTransport {
    private let inner: any DatagramTransport
    private let offline = Atomic<Bool>(false)

    init(_ inner: any DatagramTransport) { self.inner = inner }

    /// True while the device answers nothing.
    var isOffline: Bool {
        get { offline.load(ordering: .acquiring) }
        set { offline.store(newValue, ordering: .releasing) }
    }

    var queue: DispatchQueue { inner.queue }
    var port: UInt16 { inner.port }

    func onPortUnreachable(_ handler: @escaping @Sendable (UDPAddress) -> Void) {
        inner.onPortUnreachable(handler)
    }

    func start(_ handler: @escaping @Sendable (Datagram) -> Void) {
        inner.start { [self] datagram in
            guard !isOffline else { return }
            handler(datagram)
        }
    }

    func send(_ bytes: [UInt8], to destination: UDPAddress) throws(SocketError) {
        guard !isOffline else { return }
        try inner.send(bytes, to: destination)
    }

    func close() { inner.close() }
}
