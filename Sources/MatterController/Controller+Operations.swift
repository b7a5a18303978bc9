import MatterClusters
public import MatterCore
public import MatterInteraction
public import MatterTLV
import MatterTransport

/// The operational API: commands, attribute reads, writes and subscriptions on commissioned nodes.
/// Every call opens (or reuses) a CASE session with the node.
extension Controller {
    // MARK: Commands

    /// Invokes a command and returns its result; a non-success status throws `.status`. `timed` nil
    /// uses a timed interaction when the command's schema requires one.
    @discardableResult
    public func invoke(
        _ nodeID: NodeID, endpoint: EndpointID, cluster: ClusterID, command: CommandID, fields: [TLVElement] = [],
        timed: Bool? = nil
    ) async throws(ControllerError) -> InvokeResult {
        let schema = ClusterRegistry.standard.cluster(cluster)?.command(command)
        let path = ConcreteCommandPath(endpoint: endpoint, cluster: cluster, command: command)
        let context = Self.context(nodeID, endpoint, cluster, commandName: schema?.name ?? "\(command)")
        let idempotent = Self.idempotentCommands[cluster]?.contains(command) ?? false
        return try await withSession(nodeID, idempotent: idempotent) { session throws(ControllerError) in
            try await invoke(
                path, fields: fields, session: session, timed: timed ?? schema?.requiresTimedInvoke ?? false,
                context: context)
        }
    }

    /// Invokes several commands on one node in one InvokeRequest: the node must accept that many
    /// (BasicInformation MaxPathsPerInvoke) and the paths must differ. Returns each command's result in
    /// order; a status the node answered for a command, a failure included, is its result, not an error.
    /// `timed` sends it as a timed interaction (when one of the commands requires it). Throws when the
    /// request itself fails: no session, no answer, a status for the whole request.
    public func invoke(
        _ nodeID: NodeID, batch commands: [CommandRequest], timed: Bool = false
    ) async throws(ControllerError) -> [InvokeResult] {
        guard !commands.isEmpty else { return [] }
        let context = "node \(nodeID.rawValue): a batch of \(commands.count) commands"
        return try await withSession(nodeID, idempotent: false) { session throws(ControllerError) in
            do throws(InteractionError) {
                return try await client.invoke(
                    commands, session: session, timedTimeout: timed ? configuration.timedInteractionTimeout : nil)
            } catch {
                throw ControllerError(error, context: context)
            }
        }
    }

    /// OnOff.On.
    public func on(_ nodeID: NodeID, endpoint: EndpointID = EndpointID(1)) async throws(ControllerError) {
        try await invoke(nodeID, endpoint: endpoint, cluster: .onOff, command: .OnOff.on)
    }

    /// OnOff.Off.
    public func off(_ nodeID: NodeID, endpoint: EndpointID = EndpointID(1)) async throws(ControllerError) {
        try await invoke(nodeID, endpoint: endpoint, cluster: .onOff, command: .OnOff.off)
    }

    /// OnOff.Toggle.
    public func toggle(_ nodeID: NodeID, endpoint: EndpointID = EndpointID(1)) async throws(ControllerError) {
        try await invoke(nodeID, endpoint: endpoint, cluster: .onOff, command: .OnOff.toggle)
    }

    /// OnOff.OffWithEffect (effect 0 DelayedAllOff, 1 DyingLight; variant per effect).
    public func offWithEffect(
        _ nodeID: NodeID, effect: UInt8, variant: UInt8, endpoint: EndpointID = EndpointID(1)
    ) async throws(ControllerError) {
        try await invoke(
            nodeID, endpoint: endpoint, cluster: .onOff, command: .OnOff.offWithEffect,
            fields: [.field(0, UInt64(effect)), .field(1, UInt64(variant))])
    }

    /// LevelControl.MoveToLevel, or MoveToLevelWithOnOff (which also turns the light on or off).
    /// `transitionTime` is in tenths of a second; nil sends null (the device's OnOffTransitionTime).
    public func moveToLevel(
        _ nodeID: NodeID, level: UInt8, transitionTime: UInt16? = 0, optionsMask: UInt8 = 0,
        optionsOverride: UInt8 = 0, withOnOff: Bool = false, endpoint: EndpointID = EndpointID(1)
    ) async throws(ControllerError) {
        try await invoke(
            nodeID, endpoint: endpoint, cluster: .levelControl,
            command: withOnOff ? .LevelControl.moveToLevelWithOnOff : .LevelControl.moveToLevel,
            fields: [
                .field(0, UInt64(level)), .field(1, transitionTime.map { .unsigned(UInt64($0)) } ?? .null),
                .field(2, UInt64(optionsMask)), .field(3, UInt64(optionsOverride)),
            ])
    }

    /// ColorControl.MoveToColorTemperature (`transitionTime` in tenths of a second).
    public func moveToColorTemperature(
        _ nodeID: NodeID, mireds: UInt16, transitionTime: UInt16 = 0, optionsMask: UInt8 = 0,
        optionsOverride: UInt8 = 0, endpoint: EndpointID = EndpointID(1)
    ) async throws(ControllerError) {
        try await invoke(
            nodeID, endpoint: endpoint, cluster: .colorControl, command: .ColorControl.moveToColorTemperature,
            fields: [
                .field(0, UInt64(mireds)), .field(1, UInt64(transitionTime)), .field(2, UInt64(optionsMask)),
                .field(3, UInt64(optionsOverride)),
            ])
    }

    /// DoorLock.LockDoor (a timed invoke).
    public func lockDoor(
        _ nodeID: NodeID, pinCode: [UInt8]? = nil, endpoint: EndpointID = EndpointID(1)
    ) async throws(ControllerError) {
        try await invoke(
            nodeID, endpoint: endpoint, cluster: .doorLock, command: .DoorLock.lockDoor,
            fields: pinCode.map { [.field(0, $0)] } ?? [], timed: true)
    }

    /// DoorLock.UnlockDoor (a timed invoke).
    public func unlockDoor(
        _ nodeID: NodeID, pinCode: [UInt8]? = nil, endpoint: EndpointID = EndpointID(1)
    ) async throws(ControllerError) {
        try await invoke(
            nodeID, endpoint: endpoint, cluster: .doorLock, command: .DoorLock.unlockDoor,
            fields: pinCode.map { [.field(0, $0)] } ?? [], timed: true)
    }

    // MARK: Attributes

    /// Reads `paths` (wildcards allowed) from a node.
    public func read(
        _ nodeID: NodeID, paths: [AttributePathIB], fabricFiltered: Bool = true
    ) async throws(ControllerError) -> ReadResult {
        try await withSession(nodeID, idempotent: true) { session throws(ControllerError) in
            try await read(paths, session: session, fabricFiltered: fabricFiltered, context: "node \(nodeID.rawValue)")
        }
    }

    /// Reads one attribute: its value (`null` included), or `.unsupported` when the node has no such
    /// endpoint, cluster or attribute. Other statuses throw `.status`.
    public func readAttribute(
        _ nodeID: NodeID, endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID,
        fabricFiltered: Bool = true
    ) async throws(ControllerError) -> AttributeValue {
        let path = ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
        let result = try await read(nodeID, paths: [AttributePathIB(path)], fabricFiltered: fabricFiltered)
        let context = Self.context(nodeID, endpoint, cluster, attributeName: Self.attributeName(cluster, attribute))
        guard let report = result.report(for: path) ?? result.attributes.first else {
            throw .protocolViolation("\(context): the node reported nothing")
        }
        switch report.result {
        case .success(let value): return .value(value)
        case .failure(let status) where status.status.meansUnsupported: return .unsupported(status.status)
        case .failure(let status): throw .status(status, context: context)
        }
    }

    /// Writes one attribute. `timed` nil uses a timed write when the schema requires one.
    public func writeAttribute(
        _ nodeID: NodeID, endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID, value: TLVValue,
        timed: Bool? = nil
    ) async throws(ControllerError) {
        let path = ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
        let timedWrite =
            timed ?? ClusterRegistry.standard.cluster(cluster)?.attribute(attribute)?.requiresTimedWrite ?? false
        let context = Self.context(nodeID, endpoint, cluster, attributeName: Self.attributeName(cluster, attribute))
        let results = try await withSession(nodeID, idempotent: true) { session throws(ControllerError) in
            do throws(InteractionError) {
                return try await client.write(
                    [WriteItem(path: path, value: value)], session: session,
                    timedTimeout: timedWrite ? configuration.timedInteractionTimeout : nil)
            } catch {
                throw ControllerError(error, context: context)
            }
        }
        for result in results where !result.status.isSuccess { throw .status(result.status, context: context) }
    }

    /// Subscribes to `paths`: returns the subscription with its priming report; later reports go to
    /// `onReport` (empty ones are keep-alives), and `onEnded` runs once when the subscription is lost.
    /// `keepSubscriptions` false (chip-tool's default) makes the node end this controller's other
    /// subscriptions to it; true keeps them.
    public func subscribe(
        _ nodeID: NodeID, paths: [AttributePathIB], minInterval: UInt16, maxInterval: UInt16,
        fabricFiltered: Bool = true, keepSubscriptions: Bool = false,
        onReport: @escaping @Sendable (SubscriptionReport) -> Void,
        onEnded: @escaping @Sendable (ControllerError) -> Void = { _ in }
    ) async throws(ControllerError) -> ClientSubscription {
        let request = SubscribeRequestMessage(
            keepSubscriptions: keepSubscriptions, minIntervalFloor: minInterval, maxIntervalCeiling: maxInterval,
            attributeRequests: paths,
            isFabricFiltered: fabricFiltered)
        let context = "node \(nodeID.rawValue) subscription"
        return try await withSession(nodeID) { session throws(ControllerError) in
            do throws(InteractionError) {
                return try await client.subscribe(
                    request, session: session, onReport: onReport,
                    onEnded: { error in onEnded(ControllerError(error, context: context)) })
            } catch {
                throw ControllerError(error, context: context)
            }
        }
    }

    /// Forgets a subscription locally (the node learns it when its next report is not answered).
    public func cancel(_ subscription: ClientSubscription) async {
        await client.cancel(subscription)
    }

    // MARK: Support

    /// True when the node's cluster lists `command` in its AcceptedCommandList; false when it does not,
    /// or when the endpoint or cluster is not there.
    public func supports(
        _ nodeID: NodeID, endpoint: EndpointID, cluster: ClusterID, command: CommandID
    ) async throws(ControllerError) -> Bool {
        let list = try await readAttribute(
            nodeID, endpoint: endpoint, cluster: cluster, attribute: .acceptedCommandList)
        return Self.numbers(in: list.value).contains(UInt64(command.rawValue))
    }

    /// Whether the node has an attribute (from its cluster's AttributeList), and if so whether its
    /// schema allows null.
    public func attributeSupport(
        _ nodeID: NodeID, endpoint: EndpointID, cluster: ClusterID, attribute: AttributeID
    ) async throws(ControllerError) -> AttributeSupport {
        let list = try await readAttribute(nodeID, endpoint: endpoint, cluster: cluster, attribute: .attributeList)
        guard Self.numbers(in: list.value).contains(UInt64(attribute.rawValue)) else { return .unsupported }
        let nullable = ClusterRegistry.standard.cluster(cluster)?.attribute(attribute)?.isNullable ?? false
        return .supported(nullable: nullable)
    }

    // MARK: Helpers

    /// Commands whose repeat leaves the node as one would: sent again when the node did not answer
    /// (Toggle, Step and Move commands are not: a lost answer may hide that the first one acted).
    static let idempotentCommands: [ClusterID: Set<CommandID>] = [
        .onOff: [.OnOff.on, .OnOff.off, .OnOff.offWithEffect],
        .levelControl: [.LevelControl.moveToLevel, .LevelControl.moveToLevelWithOnOff],
        .colorControl: [.ColorControl.moveToColorTemperature],
        .doorLock: [.DoorLock.lockDoor, .DoorLock.unlockDoor],
    ]

    static func numbers(in value: TLVValue?) -> Set<UInt64> {
        Set((value?.members ?? []).compactMap(\.uint))
    }

    static func attributeName(_ cluster: ClusterID, _ attribute: AttributeID) -> String {
        ClusterRegistry.standard.cluster(cluster)?.attribute(attribute)?.name ?? "\(attribute)"
    }

    static func clusterName(_ cluster: ClusterID) -> String {
        ClusterRegistry.standard.cluster(cluster)?.name ?? "\(cluster)"
    }

    static func context(
        _ nodeID: NodeID, _ endpoint: EndpointID, _ cluster: ClusterID, commandName: String? = nil,
        attributeName: String? = nil
    ) -> String {
        "node \(nodeID.rawValue) endpoint \(endpoint.rawValue) \(clusterName(cluster)).\(commandName ?? attributeName ?? "")"
    }
}
