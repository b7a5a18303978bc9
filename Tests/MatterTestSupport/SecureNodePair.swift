import Dispatch
package import MatterCore
package import MatterTransport

/// A controller node and a device node on an in-memory network with a secure session between them
/// (random keys from a seed, as if CASE or PASE had run): the in-memory LAN the interaction and
/// data-model tests put their servers and clients on.
package struct SecureNodePair: Sendable {
    /// The controller's node ID on fabric 1 (chip-tool's).
    package static let controllerNodeID: UInt64 = 112_233
    /// The device's node ID on fabric 1.
    package static let deviceNodeID: UInt64 = 0x1234

    package let network: InMemoryNetwork
    package let controller: TransportNode
    package let device: TransportNode
    /// The session as the controller holds it.
    package let controllerSession: SessionID
    /// The session as the device holds it.
    package let deviceSession: SessionID

    /// Two started nodes on a new in-memory network over `clock`, Dispatch timers only when
    /// `dispatchTimers`, seeded with `nodeSeeds` (controller, device); the session's keys come from
    /// `keySeed`. `deviceKind` is the device's view of the session (default: CASE on fabric 1 with the
    /// controller); the controller's mirrors it.
    package static func make(
        clock: any MatterClock, dispatchTimers: Bool, nodeSeeds: (UInt64, UInt64), keySeed: UInt64,
        deviceKind: SecureSessionKind? = nil
    ) async -> SecureNodePair {
        let network = InMemoryNetwork(clock: clock)
        let a = network.makeEndpoint(queue: DispatchQueue(label: "controller"))
        let b = network.makeEndpoint(queue: DispatchQueue(label: "device"))
        var configuration = TransportNode.Configuration()
        configuration.usesDispatchTimers = dispatchTimers
        configuration.randomSeed = nodeSeeds.0
        let controller = TransportNode(transport: a, clock: clock, configuration: configuration)
        configuration.randomSeed = nodeSeeds.1
        let device = TransportNode(transport: b, clock: clock, configuration: configuration)
        await controller.start()
        await device.start()
        var random = SeededRandom(seed: keySeed)
        let i2r = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let r2i = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let challenge = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let controllerID = await controller.allocateSessionID()
        let deviceID = await device.allocateSessionID()
        let deviceKind =
            deviceKind
            ?? .case(
                fabricIndex: 1, localNodeID: NodeID(deviceNodeID), peerNodeID: NodeID(controllerNodeID), peerCATs: [])
        let controllerKind: SecureSessionKind =
            switch deviceKind {
            case .pase: .pase
            case .case(let fabric, let local, let peer, _):
                .case(fabricIndex: fabric, localNodeID: peer, peerNodeID: local, peerCATs: [])
            }
        let controllerSession = await controller.addSecureSession(
            SecureSessionParameters(
                kind: controllerKind, localSessionID: controllerID, peerSessionID: deviceID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: true),
                peerAddress: b.address, peerMRP: .default, isInitiator: true))
        let deviceSession = await device.addSecureSession(
            SecureSessionParameters(
                kind: deviceKind, localSessionID: deviceID, peerSessionID: controllerID,
                keys: SessionKeys(i2r: i2r, r2i: r2i, attestationChallenge: challenge, isInitiator: false),
                peerAddress: a.address, peerMRP: .default, isInitiator: false))
        return SecureNodePair(
            network: network, controller: controller, device: device, controllerSession: controllerSession,
            deviceSession: deviceSession)
    }

    /// Stops both nodes.
    package func stop() async {
        await controller.stop()
        await device.stop()
    }

    /// Lets everything already queued on both nodes run (in-memory deliveries are queued in order); each
    /// round lets one more message of a back-and-forth (a chunk and its StatusResponse) through.
    package func settle() async { await Self.settle(device, controller) }

    /// `settle()` for two nodes held apart from a pair.
    package static func settle(_ device: TransportNode, _ controller: TransportNode) async {
        for _ in 0..<32 {
            await device.perform { _ in }
            await controller.perform { _ in }
        }
    }
}
