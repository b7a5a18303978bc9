import MatterController
import MatterCore
import MatterDiscovery
import MatterOnboarding
import MatterStorage

/// The Home API's commissioning lifecycle: prepare, commission (one device at a time, as many as
/// wanted), configure, then complete, or cancel at any point.
extension Structure {
    /// Checks that this home can commission and takes the state directory for it.
    ///
    /// - Throws: `storage` when the store cannot be written; `discovery` when there is neither a
    ///   commissioning address nor a way to browse DNS-SD (or the Avahi daemon is not reachable);
    ///   `commissioning` when another commissioning (in this process or another one) holds the state
    ///   directory. Waits first for the clean-up of a cancelled commissioning of this home.
    public func prepareForMatterCommissioning() async throws(HomeError) {
        await home.commissioning.waitForCleanup()
        do {
            try home.records.set(
                "last-prepare", to: Array(String(home.controller.controllerNodeID.rawValue).utf8),
                namespace: HomeContext.recordsNamespace)
        } catch {
            throw HomeError(.storage, "the state directory \(home.stateDirectory) cannot be written: \(error)")
        }
        if home.commissioningAddress == nil {
            guard home.canDiscover else {
                throw HomeError(
                    .discovery,
                    "no way to find a device to commission: set Configuration.discovery to .avahi or give "
                        + "Configuration.commissioningAddress")
            }
            if home.usesAvahi {
                do {
                    let avahi = try await AvahiDNSSD.start(label: "matter-home.check")
                    await avahi.stop()
                } catch {
                    throw HomeError(
                        .discovery,
                        "the Avahi daemon is not reachable (\(error)); start avahi-daemon or give "
                            + "Configuration.commissioningAddress")
                }
            }
        }
        try await home.commissioning.prepare()
    }

    /// Commissions the device `onboardingPayload` describes (a QR code `MT:...` or a manual pairing
    /// code) onto this home's fabric, stores it, and starts following it; returns its ``HomeDevice/id``.
    /// Cancelling the calling task cancels the commissioning (see ``cancelMatterCommissioning()``).
    ///
    /// - Throws: `invalidArgument` for a bad payload or when no commissioning was prepared,
    ///   `cancelled`, or the class of the stage that failed (the device is then left commissionable).
    @discardableResult
    public func commissionMatterDevice(onboardingPayload: String) async throws(HomeError) -> String {
        try await commission(onboardingPayload, progress: { _ in })
    }

    /// ``commissionMatterDevice(onboardingPayload:)`` as a sequence of stage updates, ending with
    /// ``CommissioningUpdate/commissioned(deviceID:)``, or throwing the ``HomeError``. Ending the
    /// iteration early cancels the commissioning.
    public func commissioningUpdates(onboardingPayload: String) -> AsyncThrowingStream<CommissioningUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream<CommissioningUpdate, any Error>.makeStream()
        let task = Task {
            do throws(HomeError) {
                let id = try await commission(onboardingPayload) { continuation.yield($0) }
                continuation.yield(.commissioned(deviceID: id))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Commissions `text`, calling `progress` on the controller as each stage starts and ends.
    func commission(
        _ text: String, progress: @escaping @Sendable (CommissioningUpdate) -> Void
    ) async throws(HomeError) -> String {
        let payload: SetupPayload
        do { payload = try OnboardingPayloadParser.parse(text).payload } catch {
            throw .invalid("onboarding payload \"\(text)\": \(error)")
        }
        var request = CommissioningRequest(payload: payload)
        if let address = home.commissioningAddress { request.locator = .address(address) }
        let controller = home.controller
        let outcome = await home.commissioning.run(
            { [request] () async -> CommissioningSession.Outcome in
                do throws(ControllerError) {
                    return .success(try await controller.commission(request, progress: { progress(.init($0)) }))
                } catch {
                    return .failure(error)
                }
            },
            undo: { result in
                // Commissioned after all: take our fabric off the device again and forget the node.
                try? await controller.unpair(result.node.nodeID, force: true)
            })
        switch outcome {
        case .success(let result):
            _ = home.liveDevice(result.node.nodeID)
            return HomeDevice.id(of: result.node.nodeID)
        case .failure(let error):
            throw error
        }
    }

    /// Names the device commissioned last since ``prepareForMatterCommissioning()`` and puts it in
    /// `room` (nil: in none), as the extension handler's `configureDevice(named:in:)`.
    /// - Throws: `invalidArgument` when no device was commissioned yet, or the name is taken.
    public func configureDevice(named name: String, in room: Room?) async throws(HomeError) {
        guard let nodeID = home.commissioning.lastCommissioned else {
            throw .invalid(
                "no device was commissioned since prepareForMatterCommissioning()", code: .failedPrecondition)
        }
        do {
            try home.store.rename(nodeID, to: name.isEmpty ? nil : name)
            try home.store.setRoom(nodeID, to: room?.name)
        } catch {
            throw HomeError(error)
        }
    }

    /// Ends the commissioning session: the IDs of the devices commissioned since
    /// ``prepareForMatterCommissioning()``, each a ``HomeDevice/id``.
    /// - Throws: `invalidArgument` when none was prepared, `commissioning` while one is still running.
    public func completeMatterCommissioning() throws(HomeError) -> [String] {
        try home.commissioning.complete().map(HomeDevice.id(of:))
    }

    /// Cancels the commissioning in flight, if any, and ends the session. Returns at once: the
    /// running commissioning's caller gets `cancelled`; the clean-up runs on its own and a following
    /// ``prepareForMatterCommissioning()`` waits for it. The controller's commissioning stops before
    /// its next stage (the stage under way finishes first) and disarms the device's fail-safe, or
    /// removes our fabric when CommissioningComplete had succeeded; one that had already stored its
    /// node has our fabric removed from the device (RemoveFabric) and the node forgotten. Devices
    /// commissioned before stay.
    public func cancelMatterCommissioning() {
        home.commissioning.cancel()
    }
}

extension CommissioningUpdate {
    init(_ event: CommissioningEvent) {
        let stage = event.stage.name
        switch event.outcome {
        case .started: self = .stageStarted(stage)
        case .succeeded(let detail): self = .stageSucceeded(stage, detail: detail)
        case .skipped(let reason): self = .stageSkipped(stage, reason: reason)
        case .failed(let error): self = .stageFailed(stage, message: error.description)
        }
    }
}
