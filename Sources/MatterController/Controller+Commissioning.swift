import MatterCore
import MatterOnboarding
import MatterStorage
import MatterTransport

extension Controller {
    /// Commissions a device onto this controller's fabric, stage by stage in the SDK commissioner's
    /// order (`CommissioningStage`), reporting each stage to `progress` as it starts and ends.
    ///
    /// A failure names its stage and reason. After PASE, the device's fail-safe is disarmed
    /// (ArmFailSafe 0) so it rolls back and is commissionable again. The node is written to the store
    /// only after CommissioningComplete succeeded, in one transaction; if that write fails, the new
    /// fabric is removed from the device again.
    ///
    /// Lost messages: a request the device did not answer is sent again (see
    /// ``ControllerConfiguration/interactionRetries``); when the device stops answering altogether (it
    /// restarted, losing its PASE session and whatever its fail-safe held), commissioning starts again
    /// from PASE (``ControllerConfiguration/commissioningAttempts``). A crash of this process between
    /// AddNOC and the store write leaves a record that ``resumeInterruptedCommissionings()`` settles.
    ///
    /// Cancelling the calling task stops commissioning before its next stage (a stage under way
    /// finishes or fails first): it fails with ``ControllerError/cancelled(_:)`` wrapped in its stage,
    /// after the device's fail-safe was disarmed (or our fabric removed, past CommissioningComplete);
    /// no node is stored. Once the node is stored, cancellation no longer applies.
    public func commission(
        _ request: CommissioningRequest, progress: @escaping @Sendable (CommissioningEvent) -> Void = { _ in }
    ) async throws(ControllerError) -> CommissioningResult {
        let nodeID = try prepareNodeID(request)
        let timeline = CommissioningTimeline(
            clock: configuration.clock, progress: progress, checkpoint: configuration.checkpoint)
        let flow = CommissioningFlow<CommissioningContext>(
            timeline: timeline, sleeper: sleeper, retries: configuration.interactionRetries, log: log,
            rearm: { context throws(ControllerError) in try await self.rearmFailSafe(context) },
            rollBack: { context, error in await self.abandon(context, after: error) })
        let discovery = CommissioningContext(request: request, nodeID: nodeID, timeline: timeline)
        try await flow.run(discoverySteps, in: discovery, isolation: self)
        var target = discovery.target
        let attempts = max(1, configuration.commissioningAttempts)
        var attempt = 1
        while true {
            // Each attempt from PASE on starts afresh, with the device PASE last succeeded with.
            let context = CommissioningContext(request: request, nodeID: nodeID, target: target, timeline: timeline)
            defer {
                context.lookup?.cancel()
                context.lock?.release()
            }
            do throws(ControllerError) {
                try await flow.run(attemptSteps, in: context, isolation: self)
                guard let stored = context.stored else { throw .internalFailure("commissioning stored no node") }
                return CommissioningResult(
                    node: stored.node, operationalAddress: stored.address, events: timeline.events)
            } catch {
                target = context.target
                // Again from PASE only when the device answered PASE and then fell silent (a device
                // that does not answer PASE, after its own retries, is not there).
                guard attempt < attempts, error.underlying.category == .unreachable, !Self.failed(error, at: .pase)
                else { throw error }
                attempt += 1
                log.notice(
                    "\(error.underlying); commissioning node \(nodeID.rawValue) again from PASE "
                        + "(attempt \(attempt) of \(attempts))")
            }
        }
    }

    static func failed(_ error: ControllerError, at stage: CommissioningStage) -> Bool {
        if case .commissioning(let failed, _) = error { return failed == stage }
        return false
    }

    /// Throws a storage error when the store's file was deleted or replaced since it was opened.
    func checkStoreFile() throws(ControllerError) {
        do throws(StorageError) { try store.checkFileUnchanged() } catch { throw .storage(error) }
    }

    /// Writes the node row, then removes its interrupted-commissioning record (a crash in between
    /// leaves a record whose node exists: resuming it just removes it).
    func storeCommissionedNode(_ stored: ControllerNode, timeline: CommissioningTimeline?) throws(ControllerError) {
        do throws(StorageError) { try store.addNode(stored) } catch { throw .storage(error) }
        timeline?.reached(.nodeStored)
        do {
            try pendingStore().remove(stored.nodeID)
        } catch {
            log.warning("cannot remove the commissioning record of node \(stored.nodeID.rawValue): \(error)")
        }
    }

    /// Undoes what a failed commissioning left on the device: disarms the fail-safe (which rolls back
    /// the root certificate and NOC), or removes the fabric when CommissioningComplete had already
    /// succeeded; then forgets the sessions. The interrupted-commissioning record is removed once the
    /// device confirmed; otherwise it stays, for ``resumeInterruptedCommissionings()`` to settle.
    func abandon(_ context: CommissioningContext, after error: ControllerError) async {
        guard let pase = context.pase else { return }
        // A cancelled commissioning leaves a device that is there: PASE armed its fail-safe even when
        // ArmFailSafe was not sent yet.
        if error.isCancellation { context.failSafe.mayBeArmed = true }
        let nodeID = context.nodeID
        var undone = false
        if context.completed, context.stored == nil, let caseSession = context.caseSession {
            do {
                try await removeFabric(context.fabricIndex, session: caseSession.session, nodeID: nodeID)
                log.info("removed our fabric from node \(nodeID.rawValue) again")
                undone = true
            } catch {
                log.warning("could not remove our fabric from node \(nodeID.rawValue): \(error)")
            }
        } else if context.failSafe.mayBeArmed {
            undone = await disarmFailSafe(session: context.caseSession?.session ?? pase.session)
        }
        if context.pendingRecorded, undone {
            do { try pendingStore().remove(nodeID) } catch {
                log.warning("cannot remove the commissioning record of node \(nodeID.rawValue): \(error)")
            }
        }
        await node.removeSecureSession(pase.session)
        if let caseSession = context.caseSession, context.stored == nil {
            sessions[nodeID] = nil
            await node.removeSecureSession(caseSession.session)
        }
    }

    /// ArmFailSafe(0), waiting at most ``disarmWait`` on the clock for the answer: a device may drop
    /// the session as it disarms and never answer, and the request is on its way (MRP keeps sending
    /// it, so it is left running). True when the device confirmed.
    private func disarmFailSafe(session: SessionID) async -> Bool {
        let outcome = await sleeper.result(within: Self.disarmWait, leavingLateWork: true, isolation: self) {
            () throws(ControllerError) in try await self.armFailSafe(0, breadcrumb: 0, session: session)
        }
        switch outcome {
        case .success?:
            log.info("disarmed the device's fail-safe")
            return true
        case .failure(let error)?:
            log.warning("could not disarm the device's fail-safe (it expires on its own): \(error)")
        case nil: log.info("sent ArmFailSafe(0); no answer yet (the device may drop the session as it disarms)")
        }
        return false
    }

    /// How long a failed commissioning waits for the device to confirm the disarm, clock milliseconds.
    static let disarmWait: UInt64 = 2000

    // MARK: Before discovery

    /// The node ID the device will get: the requested one (which must be free) or a new one.
    private func prepareNodeID(_ request: CommissioningRequest) throws(ControllerError) -> NodeID {
        guard SetupPasscode.isValid(request.passcode) else {
            throw .invalidArgument("\(request.passcode) is not a valid setup passcode (the specification forbids it)")
        }
        do {
            if let name = request.name {
                guard name.contains(where: { !$0.isWhitespace }) else {
                    throw ControllerError.invalidArgument("a node name cannot be empty")
                }
                do throws(StorageError) { try ControllerStore.validateNodeOrGroupName(name) } catch {
                    throw ControllerError.invalidArgument("\(error)")
                }
                if try store.node(named: name) != nil || store.group(named: name) != nil {
                    throw ControllerError.invalidArgument("the name \"\(name)\" is already used by a node or a group")
                }
            }
            if let room = request.room, !room.contains(where: { !$0.isWhitespace }) {
                throw ControllerError.invalidArgument("a room name cannot be empty")
            }
            guard let nodeID = request.nodeID else { return try store.allocateNodeID() }
            guard nodeID.isOperational, nodeID != controllerNodeID else {
                throw ControllerError.invalidArgument(
                    "node ID \(nodeID.rawValue) cannot be given to a device (use 1...0xFFFFFFEFFFFFFFFF, not "
                        + "\(controllerNodeID.rawValue), the controller's own)")
            }
            if try store.node(nodeID) != nil {
                throw ControllerError.invalidArgument(
                    "node \(nodeID.rawValue) is already in the store: unpair it first or choose another node ID")
            }
            return nodeID
        } catch let error as ControllerError {
            throw error
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .internalFailure("\(error)")
        }
    }
}
