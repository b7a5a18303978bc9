import MatterTransport
import Testing

@testable import MatterSecureChannel

/// The PASE responder's decisions on a PBKDFParamRequest, without a node: state in, decision out.
@Suite("PASE admission (decisions apart from I/O)")
struct PASEAdmissionTests {
    static let alice = UDPAddress(host: "fe80::1", port: 5540)
    static let bob = UDPAddress(host: "fe80::2", port: 5540)
    static let timeout: UInt64 = 30_000

    private func decide(
        from peer: UDPAddress?, at now: UInt64 = 100_000, current: PASEAdmission.Current? = nil,
        windowOpen: Bool = true, attemptsLeft: Int = 20, commissioningWait: UInt16? = nil, unsecured: Bool = true
    ) throws -> PASEAdmission {
        let peer = try #require(peer)
        return PASEAdmission.decide(
            peer: peer, now: now, current: current, windowOpen: windowOpen, attemptsLeft: attemptsLeft,
            commissioningWait: commissioningWait, unsecured: unsecured, abandonAfter: Self.timeout)
    }

    private func running(_ peer: UDPAddress?, since: UInt64, sentPake2: Bool = false) throws -> PASEAdmission.Current {
        PASEAdmission.Current(peer: try #require(peer), since: since, sentPake2: sentPake2)
    }

    @Test func anIdleDeviceWithAnOpenWindowAnswers() throws {
        #expect(try decide(from: Self.alice) == PASEAdmission(previous: .kept, verdict: .proceed))
    }

    @Test func aClosedWindowRefusesEvenWhenACommissioningRuns() throws {
        #expect(try decide(from: Self.alice, windowOpen: false).verdict == .windowClosed)
        #expect(try decide(from: Self.alice, windowOpen: false, commissioningWait: 5000).verdict == .windowClosed)
    }

    @Test func aRequestOnAnEncryptedSessionIsDropped() throws {
        #expect(try decide(from: Self.alice, unsecured: false).verdict == .droppedOnEncryptedSession)
        #expect(try decide(from: Self.alice, windowOpen: false, unsecured: false).verdict == .droppedOnEncryptedSession)
    }

    @Test func oneCommissioningAtATime() throws {
        #expect(
            try decide(from: Self.alice, commissioningWait: 5000).verdict
                == .busy(waitMilliseconds: 5000, because: .commissioningOwnsDevice))
        // A commissioning owning the device keeps even a long-silent handshake (it is not abandoned).
        let silent = try running(Self.bob, since: 0)
        #expect(
            try decide(from: Self.alice, current: silent, commissioningWait: 700)
                == PASEAdmission(
                    previous: .kept, verdict: .busy(waitMilliseconds: 700, because: .commissioningOwnsDevice)))
    }

    @Test func anotherInitiatorsHandshakeBlocksUntilItIsSilentForThePASETimeout() throws {
        let now: UInt64 = 100_000
        let recent = try running(Self.bob, since: now - Self.timeout + 1)
        #expect(
            try decide(from: Self.alice, at: now, current: recent)
                == PASEAdmission(
                    previous: .kept,
                    verdict: .busy(waitMilliseconds: PASEAdmission.busyWhileHandshaking, because: .handshakeRunning)))
        let silent = try running(Self.bob, since: now - Self.timeout)
        #expect(
            try decide(from: Self.alice, at: now, current: silent)
                == PASEAdmission(previous: .silent(milliseconds: Self.timeout), verdict: .proceed))
    }

    @Test func theSameInitiatorStartingOverReplacesItsHandshakeAtOnce() throws {
        let recent = try running(Self.alice, since: 99_000)
        #expect(
            try decide(from: Self.alice, current: recent) == PASEAdmission(previous: .startedOver, verdict: .proceed))
        // ... but not past a commissioning that owns the device.
        #expect(
            try decide(from: Self.alice, current: recent, commissioningWait: 900)
                == PASEAdmission(
                    previous: .startedOver, verdict: .busy(waitMilliseconds: 900, because: .commissioningOwnsDevice)))
    }

    @Test func endingTheHandshakeMayUseTheWindowsLastAttempt() throws {
        // Replaced after Pake2: a guess could have been tested, so it counts; the last one closes the window.
        let guessed = try running(Self.alice, since: 99_000, sentPake2: true)
        #expect(
            try decide(from: Self.alice, current: guessed, attemptsLeft: 1)
                == PASEAdmission(previous: .startedOver, verdict: .windowClosed))
        #expect(try decide(from: Self.alice, current: guessed, attemptsLeft: 2).verdict == .proceed)
        // Replaced before Pake2: no guess, no count.
        let early = try running(Self.alice, since: 99_000)
        #expect(try decide(from: Self.alice, current: early, attemptsLeft: 1).verdict == .proceed)
        // A silent handshake given up always counts.
        let silent = try running(Self.bob, since: 0)
        #expect(
            try decide(from: Self.alice, current: silent, attemptsLeft: 1)
                == PASEAdmission(previous: .silent(milliseconds: 100_000), verdict: .windowClosed))
    }

    @Test func theWindowClosesAtTheLimitAndANewWindowStartsAfresh() {
        var attempts = PASEAttempts(limit: PASEResponder.maximumFailedAttempts)
        for _ in 1..<PASEResponder.maximumFailedAttempts {
            let closes = attempts.recordFailure()
            #expect(!closes)
        }
        #expect(attempts.left == 1)
        let closes = attempts.recordFailure()
        #expect(closes && attempts.left == 0)
        attempts.reset()
        #expect(attempts.failed == 0 && attempts.left == PASEResponder.maximumFailedAttempts)
    }
}
