import Testing

@testable import MatterDiscovery

/// The responder's memory of what it multicast, which recognises the echoes of its own datagrams.
@Suite("mDNS echoes of our own datagrams")
struct MDNSSentPacketsTests {
    static func datagram(_ number: Int) -> [UInt8] { [0, 0, 0x84, 0] + withUnsafeBytes(of: number) { Array($0) } }

    @Test func aSentDatagramIsRecognisedByItsWholeBytesForItsLifetime() {
        var sent = MDNSSentPackets()
        let start = ContinuousClock.now
        sent.insert(Self.datagram(1), now: start)
        #expect(sent.contains(Self.datagram(1), now: start + .milliseconds(10)))
        // Another datagram, even one only a byte longer, is not an echo.
        #expect(!sent.contains(Self.datagram(2), now: start))
        #expect(!sent.contains(Self.datagram(1) + [0], now: start))
        // Once its lifetime is over it is read like any other.
        #expect(!sent.contains(Self.datagram(1), now: start + MDNSSentPackets.lifetime + .milliseconds(1)))
        // And it is forgotten with the next sending.
        sent.insert(Self.datagram(2), now: start + MDNSSentPackets.lifetime + .milliseconds(1))
        #expect(sent.count == 1)
    }

    @Test func aDatagramSentTwiceIsRememberedUntilItsLastSending() {
        var sent = MDNSSentPackets()
        let start = ContinuousClock.now
        sent.insert(Self.datagram(7), now: start)
        sent.insert(Self.datagram(7), now: start + .seconds(2))
        #expect(sent.contains(Self.datagram(7), now: start + .seconds(4)))
        #expect(!sent.contains(Self.datagram(7), now: start + .seconds(6)))
    }

    @Test func memoryIsBoundedByForgettingTheOldest() {
        var sent = MDNSSentPackets()
        let now = ContinuousClock.now
        for number in 0...MDNSSentPackets.capacity { sent.insert(Self.datagram(number), now: now) }
        #expect(sent.count == MDNSSentPackets.capacity)
        #expect(!sent.contains(Self.datagram(0), now: now))
        #expect(sent.contains(Self.datagram(1), now: now))
        #expect(sent.contains(Self.datagram(MDNSSentPackets.capacity), now: now))
    }
}
