import MatterClusters
public import MatterCore
import MatterDiscovery
import MatterInteraction
public import MatterStorage
import MatterTLV
import MatterTransport

/// What ``Controller/resumeInterruptedCommissionings()`` did with one interrupted commissioning.
public struct ResumedCommissioning: Sendable, Equatable {
    /// The outcome for one record.
    public enum Outcome: Sendable, Equatable {
        /// The device has our fabric committed now (CommissioningComplete was accepted, before the
        /// crash or just now): the node is stored.
        case completed(ControllerNode)
        /// The node row was already written; only the record was left.
        case alreadyStored
        /// The device does not have our fabric (its fail-safe expired, or it restarted before
        /// CommissioningComplete): it is commissionable again, and the record is gone.
        case rolledBack
        /// The device did not answer; the record stays for the next try.
        case unreachable(String)
        /// A commissioning in progress in another process (or in this one) owns the record: left alone.
        case inProgress
        /// Something else failed; the record stays.
        case failed(ControllerError)
    }

    /// The node ID the interrupted commissioning was giving the device.
    public let nodeID: NodeID
    public let outcome: Outcome
}

extension Controller {
    /// The interrupted-commissioning records in the store.
    func pendingStore() throws(StorageError) -> PendingCommissioningStore { try PendingCommissioningStore(store) }

    /// Node IDs of commissionings a crash interrupted after AddNOC, before their node was stored
    /// (none normally). They are not nodes: ``resumeInterruptedCommissionings()`` settles them.
    public static func interruptedCommissionings(in store: ControllerStore) throws(ControllerError) -> [NodeID] {
        do { return try PendingCommissioningStore(store).all().map(\.nodeID) } catch { throw .storage(error) }
    }

    /// Settles every commissioning a crash of a controller interrupted between AddNOC and the store
    /// write: CASE with the device on our fabric, then CommissioningComplete. If the device has our
    /// fabric (pending under its fail-safe, or committed already), the commissioning is finished and
    /// the node stored; if it does not (CASE finds no shared root), the record is dropped: the device
    /// rolled back and is commissionable again. A device that does not answer keeps its record. A
    /// record whose commissioning is still running (in any process sharing the store: it holds the
    /// record's lock) is left alone.
    public func resumeInterruptedCommissionings() async -> [ResumedCommissioning] {
        let records: [PendingCommissioning]
        do { records = try pendingStore().all() } catch {
            log.warning("cannot read the interrupted commissionings: \(error)")
            return []
        }
        var outcomes: [ResumedCommissioning] = []
        for record in records {
            outcomes.append(ResumedCommissioning(nodeID: record.nodeID, outcome: await resume(record)))
        }
        return outcomes
    }

    private func resume(_ listed: PendingCommissioning) async -> ResumedCommissioning.Outcome {
        let nodeID = listed.nodeID
        guard let lock = CommissioningLock.acquire(storePath: store.database.path, nodeID: nodeID.rawValue) else {
            return .inProgress
        }
        defer { lock.release() }
        let record: PendingCommissioning
        do {
            if try store.node(nodeID) != nil {
                try pendingStore().remove(nodeID)
                return .alreadyStored
            }
            // Settled meanwhile by its own commissioning (which removed it after undoing its work)?
            guard let current = try pendingStore().record(nodeID) else { return .rolledBack }
            record = current
        } catch {
            return .failed(.storage(error))
        }
        var candidates: [(address: UDPAddress, mrp: MRPParameters)] = []
        if let direct = addressOverrides[nodeID] {
            candidates = direct.addresses.udpAddresses(port: direct.port).map { ($0, configuration.defaultPeerMRP) }
        } else if let address = UDPAddress(endpoint: record.address) {
            candidates = [(address, configuration.defaultPeerMRP)]
        }
        guard !candidates.isEmpty else { return .unreachable("no address recorded for node \(nodeID.rawValue)") }
        do throws(ControllerError) {
            let session = try await establishCASE(nodeID, candidates: candidates)
            let completed = try await completeCommissioning(
                nodeID, session: session, candidates: candidates, resuming: true)
            sessions[nodeID] = completed
            let deviceTypes = await readDeviceTypes(completed.session)
            let node = record.node(deviceTypes: deviceTypes.list, address: completed.address.description)
            try storeCommissionedNode(node, timeline: nil)
            log.notice("finished the interrupted commissioning of node \(nodeID.rawValue)")
            return .completed(node)
        } catch {
            switch error.underlying {
            case .notOnFabric:
                do { try pendingStore().remove(nodeID) } catch { return .failed(.storage(error)) }
                log.notice("node \(nodeID.rawValue) does not have our fabric: its commissioning was rolled back")
                return .rolledBack
            case .unreachable(let why): return .unreachable(why)
            default: return .failed(error)
            }
        }
    }

    // MARK: Shared with commissioning

    /// Runs `body` (one request and its answer) again when the node did not answer it (MRP gave up, or
    /// no response came in time), ``ControllerConfiguration/interactionRetries`` more times at most.
    /// `body` learns whether it is a repeat, to check what an earlier, unanswered attempt did.
    func retrying<T>(
        _ what: String, _ body: (_ isRetry: Bool) async throws(ControllerError) -> T
    ) async throws(ControllerError) -> T {
        var retries = 0
        while true {
            do throws(ControllerError) {
                return try await body(retries > 0)
            } catch {
                guard error.category == .unreachable, retries < configuration.interactionRetries else { throw error }
                retries += 1
                log.info("\(what): \(error); sending it again (\(retries) of \(configuration.interactionRetries))")
            }
        }
    }

    /// CommissioningComplete over CASE on the new fabric; returns the session it succeeded on. When the
    /// node does not answer, a new CASE session is established (it may have restarted) and the
    /// command sent again. A repeat (or, `resuming`, any send) answered NoFailSafe means an earlier one
    /// was accepted, if our fabric is there: the device committed it and disarmed.
    func completeCommissioning(
        _ nodeID: NodeID, session first: OperationalSession, candidates: [(address: UDPAddress, mrp: MRPParameters)],
        resuming: Bool = false
    ) async throws(ControllerError) -> OperationalSession {
        var session = first
        var retries = 0
        while true {
            do throws(ControllerError) {
                let fields = try await invoke(
                    .root(.generalCommissioning, .GeneralCommissioning.commissioningComplete),
                    expecting: .GeneralCommissioning.commissioningCompleteResponse, session: session.session,
                    context: "CommissioningComplete")
                if resuming || retries > 0, fields[context: 0]?.uint == 3,
                    try await ourFabricIndex(nodeID, session: session.session) != nil
                {
                    log.info("CommissioningComplete: the device had committed our fabric already")
                    return session
                }
                try Self.checkCommissioningErrorCode(fields, command: "CommissioningComplete")
                return session
            } catch {
                guard error.category == .unreachable, retries < configuration.interactionRetries else { throw error }
                retries += 1
                log.info("CommissioningComplete: \(error); again on a new CASE session")
                await node.removeSecureSession(session.session)
                session = try await establishCASE(nodeID, candidates: candidates)
            }
        }
    }

    /// The index of our fabric on the node, when its Fabrics attribute (read on `session`, fabric
    /// filtered) lists our fabric ID with `nodeID`; nil otherwise.
    func ourFabricIndex(_ nodeID: NodeID, session: SessionID) async throws(ControllerError) -> UInt8? {
        let path = ConcreteAttributePath.root(.operationalCredentials, .OperationalCredentials.fabrics)
        let result = try await read([AttributePathIB(path)], session: session, context: "reading Fabrics")
        for entry in result.report(for: path)?.value?.members ?? [] {
            guard entry[context: 3]?.uint == fabricID.rawValue, entry[context: 4]?.uint == nodeID.rawValue else {
                continue
            }
            return entry[context: 0xFE]?.uint.flatMap { UInt8(exactly: $0) }
        }
        return nil
    }
}
