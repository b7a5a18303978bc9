import Foundation
import MatterClusters
public import MatterCore
import MatterDataModel
import MatterDiscovery
import MatterInteraction
import MatterSecureChannel
public import MatterTLV
import MatterTransport
import Synchronization

/// What one command a client-side device (a light switch) sent to one target of its Binding cluster did.
public struct BindingDelivery: Sendable, CustomStringConvertible {
    /// The fabric the binding entry belongs to.
    public let fabricIndex: UInt8
    /// The bound node, or nil for a group target.
    public let node: NodeID?
    /// The bound group, for a group target.
    public let group: UInt16?
    public let endpoint: EndpointID?
    /// True when the target answered SUCCESS (or a response command).
    public let delivered: Bool
    /// The target's status, or why the command did not reach it.
    public let outcome: String

    public var description: String {
        let target = node.map { "node \($0.rawValue)" } ?? group.map { "group \($0)" } ?? "?"
        let place = endpoint.map { " endpoint \($0.rawValue)" } ?? ""
        return "fabric \(fabricIndex) \(target)\(place): \(outcome)"
    }
}

extension VirtualDevice {
    /// One entry of a Binding list (Binding cluster TargetStruct).
    struct BindingTarget {
        let fabricIndex: UInt8
        let node: NodeID?
        let group: UInt16?
        let endpoint: EndpointID?
        let cluster: ClusterID?
    }

    /// The sessions a client-side device keeps with the nodes it commanded, by fabric and node.
    struct BindingKey: Hashable {
        let fabricIndex: UInt8
        let node: NodeID
    }

    /// Sends `command` of `cluster` with `fields` (a structure's members) to every target the Binding
    /// cluster on `endpoint` names for `cluster` (an entry without a cluster names every one), as a real
    /// switch does: as itself on the entry's fabric, through a CASE session with the bound node (whose
    /// AccessControl must grant this node), found by its operational DNS-SD record. A group target is not
    /// sent to (groupcast is not implemented). Targets are sent to one after another; each has its outcome.
    /// - Throws: when the endpoint has no Binding cluster.
    public func sendToBindings(
        endpoint: EndpointID, cluster: ClusterID, command: CommandID, fields: [TLVElement]
    ) async throws(DeviceError) -> [BindingDelivery] {
        let boundModel = dataModel
        let boundRoot = root
        let read: Result<([BindingTarget], [CASECredentials]), DeviceError> = await node.run { node in
            let model = boundModel.value(in: node)
            let path = ConcreteAttributePath(endpoint: endpoint, cluster: .binding, attribute: .Binding.binding)
            guard model.cluster(.binding, on: endpoint) != nil,
                let list = try? model.readServed(path, context: .control)
            else {
                return .failure(.invalidConfiguration("endpoint \(endpoint.rawValue) has no Binding cluster"))
            }
            return .success((Self.bindingTargets(list), boundRoot.value(in: node).caseCredentials()))
        }
        let (targets, fabrics) = try read.get()
        var deliveries: [BindingDelivery] = []
        for target in targets where target.cluster == nil || target.cluster == cluster {
            guard let nodeID = target.node else {
                deliveries.append(
                    BindingDelivery(
                        fabricIndex: target.fabricIndex, node: nil, group: target.group, endpoint: nil,
                        delivered: false, outcome: "not sent: group targets need groupcast, not implemented"))
                continue
            }
            let targetEndpoint = target.endpoint ?? EndpointID(1)
            let outcome: (Bool, String)
            if let fabric = fabrics.first(where: { $0.fabricIndex == target.fabricIndex }) {
                outcome = await send(
                    CommandRequest(
                        path: ConcreteCommandPath(endpoint: targetEndpoint, cluster: cluster, command: command),
                        fields: .structure(fields)),
                    to: nodeID, on: fabric)
            } else {
                outcome = (false, "not sent: the device has no fabric \(target.fabricIndex)")
            }
            deliveries.append(
                BindingDelivery(
                    fabricIndex: target.fabricIndex, node: nodeID, group: nil, endpoint: targetEndpoint,
                    delivered: outcome.0, outcome: outcome.1))
        }
        return deliveries
    }

    /// The entries of a Binding list value.
    static func bindingTargets(_ list: TLVValue) -> [BindingTarget] {
        (list.members ?? []).compactMap { entry in
            guard let fabric = entry[context: 0xFE]?.uint.flatMap(UInt8.init(exactly:)) else { return nil }
            return BindingTarget(
                fabricIndex: fabric, node: entry[context: 1]?.uint.map(NodeID.init),
                group: entry[context: 2]?.uint.flatMap(UInt16.init(exactly:)),
                endpoint: entry[context: 3]?.uint.flatMap(UInt16.init(exactly:)).map(EndpointID.init),
                cluster: entry[context: 4]?.uint.flatMap(UInt32.init(exactly:)).map(ClusterID.init))
        }
    }

    /// Invokes `request` on `nodeID`: on the session kept from an earlier command, else (or when that one
    /// is gone) on a new CASE session. Returns whether it succeeded and the outcome's text.
    private func send(_ request: CommandRequest, to nodeID: NodeID, on fabric: CASECredentials) async -> (Bool, String)
    {
        let key = BindingKey(fabricIndex: fabric.fabricIndex, node: nodeID)
        if let session = bindingSessions.withLock({ $0[key] }) {
            do throws(InteractionError) {
                return Self.outcome(try await bindingClient.invoke(request, session: session))
            } catch {
                bindingSessions.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
        let session: SessionID
        do throws(DeviceError) {
            session = try await connect(to: nodeID, on: fabric)
        } catch {
            return (false, "not sent: \(error)")
        }
        bindingSessions.withLock { $0[key] = session }
        do throws(InteractionError) {
            return Self.outcome(try await bindingClient.invoke(request, session: session))
        } catch {
            bindingSessions.withLock { _ = $0.removeValue(forKey: key) }
            return (false, "no answer: \(error)")
        }
    }

    static func outcome(_ result: InvokeResult) -> (Bool, String) {
        switch result {
        case .status(let status): (status.isSuccess, "\(status)")
        case .response(let command, _): (true, "response command \(command)")
        }
    }

    /// A CASE session with `nodeID` as this device on `fabric`: its addresses from its operational record,
    /// tried in turn.
    private func connect(to nodeID: NodeID, on fabric: CASECredentials) async throws(DeviceError) -> SessionID {
        guard let resolver else {
            throw .invalidConfiguration("node \(nodeID.rawValue) cannot be found: the device has no DNS-SD")
        }
        let found: DiscoveredOperationalNode
        do {
            let compressed = try CASEKeySchedule.compressedFabricID(
                rootPublicKey: fabric.rootPublicKey, fabricID: fabric.fabricID)
            let id = compressed.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            found = try await resolver.resolveOperational(compressedFabricID: id, nodeID: nodeID, timeout: .seconds(5))
        } catch {
            throw .invalidConfiguration("node \(nodeID.rawValue) was not found: \(error)")
        }
        let advertised = found.advertisement.sessionParameters
        let peerMRP = MRPParameters(
            idleInterval: advertised.effectiveIdleInterval, activeInterval: advertised.effectiveActiveInterval,
            activeThreshold: advertised.effectiveActiveThreshold)
        var failures: [String] = []
        for address in found.addresses {
            guard let peer = UDPAddress(host: address.description, port: found.port) else { continue }
            do throws(SecureChannelError) {
                let result = try await CASEInitiator.establish(
                    node: node, peer: peer, peerNodeID: nodeID, credentials: fabric, localMRP: configuration.mrp,
                    peerMRP: peerMRP, timeout: 5_000)
                return result.session
            } catch {
                failures.append("\(peer): \(error)")
            }
        }
        throw .invalidConfiguration(
            "CASE with node \(nodeID.rawValue) failed: "
                + (failures.isEmpty ? "no address" : failures.joined(separator: "; ")))
    }

    /// `send`: the device sends a command to the targets its Binding cluster names (a light switch's press).
    func sendAction(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let (endpoint, cluster, schema, fields) = try Self.command(request)
        let deliveries: [BindingDelivery]
        do {
            deliveries = try await sendToBindings(
                endpoint: endpoint, cluster: cluster.id, command: schema.id, fields: fields.members ?? [])
        } catch {
            throw ControlFailure("\(error)")
        }
        guard !deliveries.isEmpty else {
            throw ControlFailure(
                "no binding on endpoint \(endpoint.rawValue) names \(cluster.name): write the Binding list first")
        }
        return Self.answer(["sent": Self.deliveries(deliveries)])
    }

    /// Each delivery as the control plane answers it.
    static func deliveries(_ deliveries: [BindingDelivery]) -> [[String: Any]] {
        deliveries.map { delivery -> [String: Any] in
            var entry: [String: Any] = [
                "fabric": Int(delivery.fabricIndex), "delivered": delivery.delivered, "outcome": delivery.outcome,
            ]
            if let node = delivery.node { entry["node"] = NSNumber(value: node.rawValue) }
            if let group = delivery.group { entry["group"] = Int(group) }
            if let endpoint = delivery.endpoint { entry["endpoint"] = Int(endpoint.rawValue) }
            return entry
        }
    }
}
