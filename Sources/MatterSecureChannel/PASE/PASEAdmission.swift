import MatterTransport

/// What a device does with a PBKDFParamRequest, decided from the responder's state alone: no node,
/// no exchange, no I/O (the responder carries the decision out). Spec 5.5 (one commissioning at a
/// time, the window closing after failures) and the SDK's habits (a 30 s PASE timeout; a request on
/// an encrypted session dropped).
struct PASEAdmission: Equatable {
    /// The handshake in progress when the request came.
    struct Current: Equatable {
        var peer: UDPAddress
        /// When it began (node clock, ms).
        var since: UInt64
        /// Pake2 went out: ending it counts as a failed attempt even when its initiator replaced it
        /// (a passcode guess could be tested against it).
        var sentPake2: Bool
    }

    /// What becomes of the handshake in progress.
    enum Previous: Equatable {
        /// None was in progress, or it stays (the new request is refused BUSY).
        case kept
        /// Its own initiator started over: it is replaced.
        case startedOver
        /// It was silent for `milliseconds` (at least the PASE timeout): it is given up.
        case silent(milliseconds: UInt64)
    }

    /// What the request gets.
    enum Verdict: Equatable {
        /// StatusReport BUSY with this minimum wait; the request's unsecured session is forgotten.
        case busy(waitMilliseconds: UInt16, because: BusyReason)
        /// Closed without an answer: PBKDFParamRequest on an encrypted session (as the SDK does).
        case droppedOnEncryptedSession
        /// Refused (counted, not reported): no commissioning window is open.
        case windowClosed
        /// Answered with PBKDFParamResponse.
        case proceed
    }

    /// Why a request gets BUSY.
    enum BusyReason: Equatable {
        /// A PASE session is up or a fail-safe is armed: one commissioning at a time.
        case commissioningOwnsDevice
        /// Another initiator's handshake runs and is not yet silent for the PASE timeout.
        case handshakeRunning
    }

    var previous: Previous
    var verdict: Verdict

    /// The minimum wait BUSY asks for while another handshake runs.
    static let busyWhileHandshaking: UInt16 = 1000

    /// Decides for a request from `peer` at `now`.
    /// - Parameters:
    ///   - current: the handshake in progress, if any.
    ///   - windowOpen: a commissioning window is open (the responder has credentials).
    ///   - attemptsLeft: failed attempts the window still takes before it closes; ending the
    ///     handshake in progress may use the last one, and the request then finds the window closed.
    ///   - commissioningWait: how long a commissioning in progress (a PASE session, an armed
    ///     fail-safe) still owns the device, if one does.
    ///   - unsecured: the request came on an unsecured session.
    ///   - abandonAfter: how long a silent handshake blocks others (ms).
    static func decide(
        peer: UDPAddress, now: UInt64, current: Current?, windowOpen: Bool, attemptsLeft: Int,
        commissioningWait: UInt16?, unsecured: Bool, abandonAfter: UInt64
    ) -> PASEAdmission {
        var open = windowOpen
        func end(countingAFailure counts: Bool) {
            if counts && attemptsLeft <= 1 { open = false }
        }
        var previous = Previous.kept
        var running = current
        if let handshake = running, handshake.peer == peer {
            previous = .startedOver
            end(countingAFailure: handshake.sentPake2)
            running = nil
        }
        if open, let wait = commissioningWait {
            return PASEAdmission(
                previous: previous, verdict: .busy(waitMilliseconds: wait, because: .commissioningOwnsDevice))
        }
        if let handshake = running {
            let silence = now &- handshake.since
            guard silence >= abandonAfter else {
                return PASEAdmission(
                    previous: previous,
                    verdict: .busy(waitMilliseconds: busyWhileHandshaking, because: .handshakeRunning))
            }
            previous = .silent(milliseconds: silence)
            end(countingAFailure: true)
        }
        guard unsecured else { return PASEAdmission(previous: previous, verdict: .droppedOnEncryptedSession) }
        guard open else { return PASEAdmission(previous: previous, verdict: .windowClosed) }
        return PASEAdmission(previous: previous, verdict: .proceed)
    }
}

/// The failed PASE attempts of one commissioning window (spec 5.5: after `limit` the window closes).
struct PASEAttempts: Equatable {
    let limit: Int
    private(set) var failed = 0

    init(limit: Int) { self.limit = limit }

    /// Failed attempts the window still takes before it closes.
    var left: Int { max(limit - failed, 0) }

    /// Counts one failed attempt; true once `limit` attempts have failed (the window is to close).
    mutating func recordFailure() -> Bool {
        failed += 1
        return failed >= limit
    }

    /// A new window: nothing failed yet.
    mutating func reset() { failed = 0 }
}
