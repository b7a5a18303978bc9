import MatterClusters
public import MatterCore
import MatterCrypto
import MatterInteraction
public import MatterOnboarding
public import MatterStorage
import MatterTLV
import MatterTransport

/// A commissioning window a node opened for another administrator, and the codes to join it.
public struct CommissioningWindow: Sendable {
    /// The payload (new passcode and discriminator, the node's vendor and product).
    public let payload: SetupPayload
    /// `MT:...`
    public let qrCode: String
    /// The 11-digit manual code.
    public let manualCode: String
    /// How long the window stays open, seconds.
    public let timeoutSeconds: UInt16
}

/// What a node has, endpoint by endpoint (``Controller/describe(_:)``).
public struct NodeDescription: Sendable {
    public let nodeID: NodeID
    public let endpoints: [EndpointDescription]
}

/// One endpoint of a ``NodeDescription``.
public struct EndpointDescription: Sendable {
    public let endpoint: EndpointID
    public let deviceTypes: [NodeDeviceType]
    /// The PartsList (endpoints below this one).
    public let parts: [EndpointID]
    public let clusters: [ClusterDescription]
}

/// One server cluster of an endpoint.
public struct ClusterDescription: Sendable {
    public let cluster: ClusterID
    public let featureMap: UInt32?
    public let acceptedCommands: [CommandID]
    public let attributes: [AttributeID]
}

extension Controller {
    // MARK: Commissioning windows

    /// Opens an enhanced commissioning window on a node for a second administrator: a new random
    /// passcode and discriminator, their PAKE verifier sent with
    /// AdministratorCommissioning.OpenCommissioningWindow (a timed invoke).
    /// - Parameters:
    ///   - timeout: seconds the window stays open (180...900).
    ///   - iterations: PBKDF2 iterations for the verifier (1000...100000).
    public func openCommissioningWindow(
        _ nodeID: NodeID, timeout: UInt16 = 180, iterations: UInt32 = 1000, discriminator: UInt16? = nil
    ) async throws(ControllerError) -> CommissioningWindow {
        guard (180...900).contains(timeout) else {
            throw .invalidArgument("the window timeout must be 180...900 s, not \(timeout)")
        }
        guard (1000...100_000).contains(iterations) else {
            throw .invalidArgument("PBKDF iterations must be 1000...100000, not \(iterations)")
        }
        if let discriminator, discriminator > SetupDiscriminator.maxLong {
            throw .invalidArgument("the discriminator must be 0...4095, not \(discriminator)")
        }
        let stored = try storedNode(nodeID)
        var generator = SystemRandomNumberGenerator()
        let passcode = SetupPasscode.random(using: &generator)
        let chosenDiscriminator = discriminator ?? UInt16.random(in: 0...SetupDiscriminator.maxLong, using: &generator)
        let salt = try Self.random(32)
        let verifier: [UInt8]
        do {
            verifier = try Spake2PlusPasscodeVerifier(passcode: passcode, salt: salt, iterations: Int(iterations))
                .serialized
        } catch {
            throw .internalFailure("computing the PAKE verifier: \(error)")
        }
        do {
            try await invoke(
                nodeID, endpoint: .root, cluster: .administratorCommissioning,
                command: .AdministratorCommissioning.openCommissioningWindow,
                fields: [
                    .field(0, UInt64(timeout)), .field(1, verifier), .field(2, UInt64(chosenDiscriminator)),
                    .field(3, UInt64(iterations)), .field(4, salt),
                ], timed: true)
        } catch {
            if case .status(let status, let context) = error, let code = status.clusterStatus {
                let meaning =
                    switch code {
                    case 2: "Busy: a window is already open or a fail-safe is armed"
                    case 3: "PAKEParameterError"
                    case 4: "WindowNotOpen"
                    default: "cluster status \(code)"
                    }
                throw .status(status, context: "\(context) (\(meaning))")
            }
            throw error
        }
        let payload = SetupPayload(
            vendorID: stored.vendorID, productID: stored.productID, commissioningFlow: .standard,
            discoveryCapabilities: .onNetwork, discriminator: .long(chosenDiscriminator), passcode: passcode)
        do {
            return CommissioningWindow(
                payload: payload, qrCode: try SetupQRCode.encode(payload),
                manualCode: try ManualPairingCode.encode(payload), timeoutSeconds: timeout)
        } catch {
            throw .internalFailure("encoding the onboarding codes: \(error)")
        }
    }

    // MARK: Unpairing

    /// Removes this controller's fabric from a node (OperationalCredentials.RemoveFabric of the
    /// fabric index the node gives us), then forgets the node. A node that no longer knows our fabric
    /// (its answer to RemoveFabric was lost, or it was reset) counts as unpaired. With `force`, the
    /// node is forgotten even when it cannot be reached or refuses.
    public func unpair(_ nodeID: NodeID, force: Bool = false) async throws(ControllerError) {
        _ = try storedNode(nodeID)
        var requestSent = false  // whether it got as far as sending RemoveFabric
        do {
            try await withSession(nodeID) { session throws(ControllerError) in
                requestSent = true
                try await removeFabric(nil, session: session, nodeID: nodeID)
            }
        } catch {
            var outcome = error
            if requestSent, error.category == .unreachable {
                // The answer may have been lost with the fabric's sessions: does the node still know us?
                await dropSession(nodeID)
                do throws(ControllerError) { _ = try await session(for: nodeID) } catch { outcome = error }
            }
            if case .notOnFabric = outcome {
                log.notice("node \(nodeID.rawValue) no longer has our fabric: treating it as unpaired")
            } else if force {
                log.warning("forgetting node \(nodeID.rawValue) although RemoveFabric failed: \(error)")
            } else {
                throw error
            }
        }
        await dropSession(nodeID)
        do { try store.removeNode(nodeID) } catch { throw .storage(error) }
    }

    /// RemoveFabric for `fabricIndex`, or for the index the node reports as ours (CurrentFabricIndex).
    func removeFabric(_ fabricIndex: UInt8?, session: SessionID, nodeID: NodeID) async throws(ControllerError) {
        var index = fabricIndex
        if index == nil {
            let path = ConcreteAttributePath.root(.operationalCredentials, .OperationalCredentials.currentFabricIndex)
            let result = try await read(
                [AttributePathIB(path)], session: session, context: "reading CurrentFabricIndex")
            index = result.report(for: path)?.value.flatMap { TLVElement($0).uint }.flatMap { UInt8(exactly: $0) }
        }
        guard let index, index != 0 else {
            throw .protocolViolation("node \(nodeID.rawValue) reports no fabric index for this controller")
        }
        let fields = try await invoke(
            .root(.operationalCredentials, .OperationalCredentials.removeFabric), fields: [.field(0, UInt64(index))],
            expecting: .OperationalCredentials.nocResponse, session: session,
            context: "node \(nodeID.rawValue) RemoveFabric(\(index))")
        try Self.checkNOCStatus(fields, command: "RemoveFabric")
    }

    // MARK: Description

    /// Reads what a node has: each endpoint's device types, parts and server clusters, with their
    /// feature maps, accepted commands and attributes. Records the device types in the store.
    public func describe(_ nodeID: NodeID) async throws(ControllerError) -> NodeDescription {
        let result = try await read(
            nodeID,
            paths: [
                AttributePathIB(cluster: .descriptor, attribute: .Descriptor.deviceTypeList),
                AttributePathIB(cluster: .descriptor, attribute: .Descriptor.serverList),
                AttributePathIB(cluster: .descriptor, attribute: .Descriptor.partsList),
                AttributePathIB(attribute: .featureMap),
                AttributePathIB(attribute: .acceptedCommandList),
                AttributePathIB(attribute: .attributeList),
            ])
        var values: [ConcreteAttributePath: TLVValue] = [:]
        for report in result.attributes { if let value = report.value { values[report.path] = value } }
        let deviceTypes = Self.deviceTypes(in: result)
        let endpoints = Set(result.attributes.map(\.path.endpoint)).sorted()
        let description = endpoints.map { endpoint in
            func value(_ cluster: ClusterID, _ attribute: AttributeID) -> TLVValue? {
                values[ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)]
            }
            let serverList = Self.numbers(in: value(.descriptor, .Descriptor.serverList))
            let reported = Set(result.attributes.filter { $0.path.endpoint == endpoint }.map(\.path.cluster.rawValue))
            let clusters = serverList.union(reported.map(UInt64.init)).sorted().compactMap { UInt32(exactly: $0) }.map {
                raw in
                let cluster = ClusterID(raw)
                return ClusterDescription(
                    cluster: cluster,
                    featureMap: value(cluster, .featureMap).flatMap { TLVElement($0).uint }.flatMap {
                        UInt32(exactly: $0)
                    },
                    acceptedCommands: Self.numbers(in: value(cluster, .acceptedCommandList)).sorted()
                        .compactMap { UInt32(exactly: $0) }.map { CommandID($0) },
                    attributes: Self.numbers(in: value(cluster, .attributeList)).sorted()
                        .compactMap { UInt32(exactly: $0) }.map { AttributeID($0) })
            }
            return EndpointDescription(
                endpoint: endpoint, deviceTypes: deviceTypes.filter { $0.endpoint == endpoint },
                parts: Self.numbers(in: value(.descriptor, .Descriptor.partsList)).sorted()
                    .compactMap { UInt16(exactly: $0) }.map { EndpointID($0) },
                clusters: clusters)
        }
        do {
            if var stored = try store.node(nodeID), stored.deviceTypes != deviceTypes, !deviceTypes.isEmpty {
                stored.deviceTypes = deviceTypes
                try store.updateNode(stored)
            }
        } catch {
            log.warning("cannot record node \(nodeID.rawValue)'s device types: \(error)")
        }
        return NodeDescription(nodeID: nodeID, endpoints: description)
    }
}
