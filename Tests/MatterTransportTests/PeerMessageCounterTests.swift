import MatterTestSupport
import Testing

@testable import MatterTransport

@Suite("Message counter window (32) and duplicate detection")
struct PeerMessageCounterTests {
    @Test func secureUnicastAcceptsEachCounterOnceWithinTheWindow() {
        var c = PeerMessageCounter(policy: .secureUnicast)
        #expect(c.verdict(for: 0) == .duplicate)  // synchronised at 0
        for n: UInt32 in [5, 3, 40, 9, 39] {
            #expect(c.verdict(for: n) == .new, "counter \(n)")
            c.commit(n)
            #expect(c.verdict(for: n) == .duplicate, "counter \(n) again")
        }
        // 40 is the maximum: 8 is exactly 32 behind (still tracked), 7 is before the window.
        #expect(c.verdict(for: 8) == .new)
        #expect(c.verdict(for: 7) == .duplicate)
        #expect(c.verdict(for: 41) == .new)
    }

    @Test func secureUnicastNeverWraps() {
        var c = PeerMessageCounter(policy: .secureUnicast)
        c.commit(0xFFFF_FFF0)
        #expect(c.verdict(for: 2) == .duplicate)
        #expect(c.verdict(for: 0xFFFF_FFFF) == .new)
    }

    @Test func largeJumpClearsTheWindow() {
        var c = PeerMessageCounter(policy: .secureUnicast)
        c.commit(10)
        c.commit(11)
        c.commit(100)
        #expect(c.verdict(for: 99) == .new)
        #expect(c.verdict(for: 68) == .new)
        #expect(c.verdict(for: 67) == .duplicate)
        c.commit(132)  // exactly 32 ahead: 100 is now the last tracked counter
        #expect(c.verdict(for: 100) == .duplicate)
        #expect(c.verdict(for: 101) == .new)
    }

    @Test func unsecuredSynchronisesOnFirstMessageAndWraps() {
        var c = PeerMessageCounter(policy: .unsecured)
        #expect(c.verdict(for: 0xFFFF_FFFE) == .new)
        c.commit(0xFFFF_FFFE)
        #expect(c.verdict(for: 0xFFFF_FFFE) == .duplicate)
        #expect(c.verdict(for: 1) == .new)  // wrapped forward
        c.commit(1)
        #expect(c.verdict(for: 0xFFFF_FFFE) == .duplicate)  // inside the window now
        #expect(c.verdict(for: 0xFFFF_FFFF) == .new)
    }

    @Test func unsecuredAcceptsACounterFromBeforeTheWindowAsARestart() {
        var c = PeerMessageCounter(policy: .unsecured)
        c.commit(1000)
        #expect(c.verdict(for: 10) == .new)
        c.commit(10)
        #expect(c.verdict(for: 10) == .duplicate)
        #expect(c.verdict(for: 11) == .new)
    }
}
