public import MatterCore
import MatterDiscovery
import MatterSecureChannel
import MatterStorage
import MatterTransport

extension Controller {
    /// An operational session with `nodeID`: the cached one, or a new CASE session (resumed when a
    /// resumption record exists). Concurrent callers for one node share one handshake.
    func session(for nodeID: NodeID) async throws(ControllerError) -> OperationalSession {
        if let cached = sessions[nodeID], node.hasSecureSession(cached.session) { return cached }
        sessions[nodeID] = nil
        let task: Task<Result<OperationalSession, ControllerError>, Never>
        if let running = connecting[nodeID] {
            task = running
        } else {
            task = Task { await self.connect(nodeID) }
            connecting[nodeID] = task
        }
        let result = await task.value
        if connecting[nodeID] == task { connecting[nodeID] = nil }
        let session = try result.get()
        sessions[nodeID] = session
        return session
    }

    /// Forgets the cached session with `nodeID` (and removes it from the node); with `session`, only
    /// if that is still the cached one (another caller may have replaced it already).
    func dropSession(_ nodeID: NodeID, ifCurrent session: SessionID? = nil) async {
        guard let cached = sessions[nodeID], session == nil || cached.session == session else { return }
        sessions[nodeID] = nil
        await node.removeSecureSession(cached.session)
    }

    /// Closes the cached operational session with `nodeID` on this side; the next command opens a new
    /// one (resumed when the node still has the resumption record).
    public func closeSession(_ nodeID: NodeID) async { await dropSession(nodeID) }

    /// Runs `body` on an operational session with `nodeID`. When a cached session turns out dead
    /// (the node restarted and forgot it), the session is dropped and `body` runs once more on a new one.
    /// When `body` is safe to repeat (`idempotent`: a read, a write, On, Off...), a request the node
    /// did not answer is sent again, ``ControllerConfiguration/interactionRetries`` more times at most:
    /// first on the same session when it was just established, else on a new one.
    func withSession<T: Sendable>(
        _ nodeID: NodeID, idempotent: Bool = false, _ body: (SessionID) async throws(ControllerError) -> T
    ) async throws(ControllerError) -> T {
        var reused = sessions[nodeID] != nil
        var current = try await session(for: nodeID)
        var retries = idempotent ? max(0, configuration.interactionRetries) : (reused ? 1 : 0)
        while true {
            do throws(ControllerError) {
                return try await body(current.session)
            } catch  where retries > 0 && error.category == .unreachable {
                retries -= 1
                if reused {
                    log.info("session with node \(nodeID.rawValue) looks dead (\(error)); establishing a new one")
                    await dropSession(nodeID, ifCurrent: current.session)
                    current = try await session(for: nodeID)
                } else {
                    log.info("node \(nodeID.rawValue) did not answer (\(error)); sending the request again")
                    reused = true
                }
            }
        }
    }

    /// Resolves `nodeID` and runs CASE with each of its addresses until one answers.
    func connect(_ nodeID: NodeID) async -> Result<OperationalSession, ControllerError> {
        do {
            let session = try await establishCASE(nodeID, candidates: try await operationalAddresses(nodeID))
            rememberAddress(session.address, for: nodeID)
            return .success(session)
        } catch {
            return .failure(error)
        }
    }

    /// CASE with `nodeID` on the first candidate that answers. A handshake lost to silence (or BUSY)
    /// moves on to the next address, and all of them are tried again
    /// (``ControllerConfiguration/interactionRetries`` more rounds); any other refusal ends it: a node
    /// that no longer has our fabric (reset, unpaired, or restarted before committing it) fails with
    /// `notOnFabric`, anything else with `unreachable`.
    func establishCASE(
        _ nodeID: NodeID, candidates: [(address: UDPAddress, mrp: MRPParameters)]
    ) async throws(ControllerError) -> OperationalSession {
        var failures: [String] = []
        var notOnFabric = false
        // Addresses whose port the network reported closed: asking again cannot help.
        var closed: Set<UDPAddress> = []
        rounds: for round in 0...max(0, configuration.interactionRetries) {
            guard closed.count < Set(candidates.map(\.address)).count else { break }
            if round > 0 { log.info("CASE with node \(nodeID.rawValue): no answer; trying again") }
            for candidate in candidates where !closed.contains(candidate.address) {
                do {
                    let result = try await CASEInitiator.establish(
                        node: node, peer: candidate.address, peerNodeID: nodeID, credentials: identity.credentials,
                        resumption: resumption, localMRP: configuration.localMRP, peerMRP: candidate.mrp,
                        timeout: configuration.responseTimeout)
                    let resumed = result.resumed ? " (resumed)" : ""
                    log.debug("CASE with node \(nodeID.rawValue) at \(candidate.address)\(resumed)")
                    return OperationalSession(session: result.session, address: candidate.address)
                } catch {
                    if error == .noSharedTrustRoots { notOnFabric = true }
                    if case .transport(.portUnreachable) = error { closed.insert(candidate.address) }
                    failures.append("\(candidate.address): \(Self.caseFailure(error))")
                    switch error {
                    case .transport, .busy: continue
                    default: break rounds
                    }
                }
            }
        }
        let message = "CASE with node \(nodeID.rawValue) failed: " + failures.joined(separator: "; ")
        throw notOnFabric ? .notOnFabric(message) : .unreachable(message)
    }

    static func caseFailure(_ error: SecureChannelError) -> String {
        switch error {
        case .noSharedTrustRoots: "the node is not on this controller's fabric (reset or unpaired?)"
        case .transport(.noAcknowledgement): "no answer"
        case .transport(.portUnreachable): "the port is closed (ICMP port unreachable: nothing listens there)"
        default: error.description
        }
    }

    /// Where to reach `nodeID`: the caller's address, else what DNS-SD resolves, else the store's last
    /// known address.
    func operationalAddresses(_ nodeID: NodeID) async throws(ControllerError)
        -> [(address: UDPAddress, mrp: MRPParameters)]
    {
        if let direct = addressOverrides[nodeID] {
            return direct.addresses.udpAddresses(port: direct.port).map { ($0, configuration.defaultPeerMRP) }
        }
        var lastKnown: UDPAddress?
        do {
            lastKnown = try store.node(nodeID)?.lastAddress.flatMap { UDPAddress(endpoint: $0) }
        } catch {
            log.warning("cannot read node \(nodeID.rawValue)'s last address: \(error)")
        }
        var resolveFailure = "discovery is off"
        do {
            if let browser = try await browser() {
                let found = try await browser.resolveOperational(
                    compressedFabricID: identity.compressedFabricID, nodeID: nodeID,
                    timeout: configuration.resolveTimeout)
                let mrp = MRPParameters(found.advertisement.sessionParameters)
                var addresses = found.addresses.udpAddresses(port: found.port).map { ($0, mrp) }
                if let lastKnown, !addresses.contains(where: { $0.0 == lastKnown }) {
                    addresses.append((lastKnown, mrp))
                }
                if !addresses.isEmpty { return addresses }
                resolveFailure = "its record has no address"
            }
        } catch let error as ControllerError {
            resolveFailure = error.description
        } catch {
            resolveFailure = "\(error)"
        }
        if let lastKnown {
            log.info("node \(nodeID.rawValue) not resolved (\(resolveFailure)); trying its last address \(lastKnown)")
            return [(lastKnown, configuration.defaultPeerMRP)]
        }
        throw .unreachable("cannot resolve node \(nodeID.rawValue) (\(resolveFailure)) and no address is known")
    }

    /// Records the address a node answered on, if it changed.
    func rememberAddress(_ address: UDPAddress, for nodeID: NodeID) {
        do {
            guard let stored = try store.node(nodeID), stored.lastAddress != address.description else { return }
            try store.setLastAddress(nodeID, to: address.description)
        } catch {
            log.warning("cannot record node \(nodeID.rawValue)'s address: \(error)")
        }
    }
}

extension MRPParameters {
    /// The intervals a DNS-SD record advertises (defaults where it is silent).
    init(_ advertisement: MRPAdvertisement) {
        self.init(
            idleInterval: advertisement.effectiveIdleInterval, activeInterval: advertisement.effectiveActiveInterval,
            activeThreshold: advertisement.effectiveActiveThreshold)
    }
}
