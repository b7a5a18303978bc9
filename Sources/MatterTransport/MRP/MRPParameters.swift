/// A node's advertised reliability intervals (spec 4.12.8), from its session parameters or its
/// DNS-SD TXT record (`SII`, `SAI`, `SAT`).
public struct MRPParameters: Equatable, Hashable, Sendable {
    /// Retransmission base interval while the peer is idle (SESSION_IDLE_INTERVAL), milliseconds.
    public var idleInterval: UInt32
    /// Retransmission base interval while the peer is active (SESSION_ACTIVE_INTERVAL), milliseconds.
    public var activeInterval: UInt32
    /// How long a peer counts as active after it was last heard (SESSION_ACTIVE_THRESHOLD), milliseconds.
    public var activeThreshold: UInt16

    public init(idleInterval: UInt32 = 500, activeInterval: UInt32 = 300, activeThreshold: UInt16 = 4000) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
    }

    /// The SDK's defaults for Ethernet/Wi-Fi nodes, used when a peer advertised nothing.
    public static let `default` = MRPParameters()
}

/// MRP constants and the retransmission back-off (spec 4.12.2.1), in the SDK's integer form so our
/// schedule is the one an SDK node computes.
package enum MRPBackoff {
    /// Transmissions of one message at most: the first and four retransmissions.
    package static let maxTransmissions = 5
    /// A pending acknowledgement is sent on its own after this long, milliseconds.
    package static let standaloneAckTimeout: UInt64 = 200

    /// Wait before the next retransmission after `sendCount` transmissions so far (1 after the first
    /// send), from the base interval `interval` (the peer's active or idle interval) and a jitter byte.
    ///
    /// `t = i·1.1·1.6^min(max(0, n-1), 4)·(1 + jitter/1024)` with n = retransmissions already sent;
    /// SDK integer form: `i·1127/1024`, then `·16^e/10^e`, then `·(1024 + r)/1024`, r in 0...255.
    package static func wait(afterTransmissions sendCount: Int, interval: UInt32, jitter: UInt8) -> UInt64 {
        let retransmissions = max(0, sendCount - 1)
        let exponent = min(max(0, retransmissions - 1), 4)
        var t = UInt64(interval) * 1127 / 1024
        for _ in 0..<exponent { t = t * 16 / 10 }
        return t * (1024 + UInt64(jitter)) / 1024
    }
}
