import Foundation
import MatterClusters
import MatterCore
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterOnboarding
import MatterTLV
import MatterTransport

/// The control plane's device-level requests (docs/CONTROL.md): `event`, `offline`/`online`,
/// `open-window`/`close-window`, `identify`, `jam`, `hardware-fault`; and the answers for what our
/// device types lack (door position, switches, sensors).
extension VirtualDevice {
    /// The answer to `op`, or nil when `op` is not one of these.
    func action(_ op: String, _ request: [String: Any]) async -> String? {
        do throws(ControlFailure) {
            switch op {
            case "event": return try await emitEvent(request)
            case "invoke": return try await invokeCommand(request)
            case "send": return try await sendAction(request)
            case "script": return try await scriptAction(request)
            case "scripts": return await scriptList()
            case "bridge-add": return try await bridgeAdd(request)
            case "bridge-remove": return try await bridgeRemove(request)
            case "reachable": return try await setReachable(request)
            case "offline", "online": return await setOnline(op == "online")
            case "open-window": return try await openWindow(request)
            case "close-window": return try await closeWindow()
            case "identify": return try await identify(request)
            case "jam": return try await jam(request)
            case "hardware-fault": return try await hardwareFault(request)
            case "door-state":
                throw ControlFailure(
                    "the door lock has no DoorPositionSensor feature (no DoorState attribute, no DoorStateChange event)"
                )
            case "press", "long-press", "multi-press", "switch": return try await switchAction(op, request)
            case "sensor":
                throw ControlFailure(
                    #"a sensor's value is an attribute: {"op":"set","endpoint":1,"cluster":"TemperatureMeasurement","attribute":"MeasuredValue","value":2150}"#
                )
            default: return nil
            }
        } catch {
            return Self.answer(error: error.message)
        }
    }

    /// True while the device answers datagrams and advertises (not `offline`).
    public var isOnline: Bool { !gate.isOffline }

    /// `offline` / `online`: stop answering and withdraw every DNS-SD record; come back and advertise.
    func setOnline(_ online: Bool) async -> String {
        gate.isOffline = !online
        await node.run { node in
            emit(.network(online: online))
            advertise(root.value(in: node))
        }
        return Self.answer(["online": online])
    }

    /// `event`: records one event of a cluster the endpoint serves, fields by name or tag.
    func emitEvent(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = try Self.endpoint(request)
        let cluster = try Self.cluster(request)
        guard let eventName = ControlTarget.name(request["event"]) else {
            throw ControlFailure("\"event\" must be an event name or ID")
        }
        guard let schema = cluster.event(named: eventName) else {
            throw ControlFailure("\(cluster.name) defines no event \(eventName)")
        }
        let fields = try Self.fields(request, schema.name, schema.fields)
        var fabricIndex: UInt8?
        if schema.isFabricSensitive {
            guard case .structure(let members) = fields,
                let member = members.first(where: { $0.tag == .context(0xFE) }),
                case .unsigned(let raw) = member.value, let index = UInt8(exactly: raw), index > 0
            else {
                throw ControlFailure("\(schema.name) is fabric-sensitive: give \"fields\" a \"fabricIndex\" (1...254)")
            }
            fabricIndex = index
        }
        let boundDataModel = self.dataModel
        let recorded = fabricIndex
        let recordedFields = fields
        let result: Result<UInt64, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard let server = dataModel.cluster(cluster.id, on: endpoint) else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) has no \(cluster.name) cluster"))
            }
            guard server.events.contains(where: { $0.id == schema.id }) else {
                return .failure(
                    ControlFailure("\(cluster.name) on endpoint \(endpoint.rawValue) does not record \(schema.name)"))
            }
            guard
                let number = server.recordEvent(
                    schema.id, priority: schema.priority, fields: recordedFields, fabricIndex: recorded)
            else {
                return .failure(ControlFailure("the cluster is not part of a running data model"))
            }
            return .success(number)
        }
        return Self.answer(["eventNumber": try result.get()])
    }

    /// `jam`: the bolt stops half-way, as the SDK lock app's `SendDoorLockAlarm` with AlarmCode 0
    /// (LockJammed): LockState NotFullyLocked, then DoorLockAlarm.
    func jam(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = request["endpoint"] == nil ? EndpointID(1) : try Self.endpoint(request)
        return Self.answer(["eventNumber": try await doorLockAlarm(endpoint: endpoint, alarmCode: 0)])
    }

    /// Records DoorLockAlarm with `alarmCode` on the lock at `endpoint`; code 0 (LockJammed) also
    /// sets LockState NotFullyLocked first.
    func doorLockAlarm(endpoint: EndpointID, alarmCode: UInt8) async throws(ControlFailure) -> UInt64 {
        guard alarmCode <= 7 else { throw ControlFailure("AlarmCode \(alarmCode) is out of range (0...7)") }
        let boundDataModel = self.dataModel
        let result: Result<UInt64, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard let lock = dataModel.cluster(DoorLockServer.self, on: endpoint) else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) has no DoorLock cluster"))
            }
            if alarmCode == 0 { lock.setLockState(.notFullyLocked) }
            let fields = TLVValue.structure([TLVElement(tag: .context(0), .unsigned(UInt64(alarmCode)))])
            guard let number = lock.recordEvent(.DoorLock.doorLockAlarm, priority: .critical, fields: fields) else {
                return .failure(ControlFailure("the lock is not part of a running data model"))
            }
            return .success(number)
        }
        return try result.get()
    }

    /// `hardware-fault`: ActiveHardwareFaults becomes `current` (HardwareFaultEnum values) and
    /// GeneralDiagnostics records HardwareFaultChange with the previous set.
    func hardwareFault(_ request: [String: Any]) async throws(ControlFailure) -> String {
        guard let list = request["current"] as? [Any] else {
            throw ControlFailure("\"current\" must be a list of HardwareFaultEnum values (0...10)")
        }
        var current: [UInt8] = []
        for item in list {
            guard let number = Self.integer(item), let fault = UInt8(exactly: number), fault <= 10 else {
                throw ControlFailure("\"current\": \(item) is no HardwareFaultEnum value (0...10)")
            }
            current.append(fault)
        }
        return Self.answer(["eventNumber": try await changeHardwareFaults(to: current)])
    }

    /// Sets ActiveHardwareFaults and records HardwareFaultChange (Current, Previous).
    func changeHardwareFaults(to current: [UInt8]) async throws(ControlFailure) -> UInt64 {
        guard current.count <= 11 else { throw ControlFailure("at most 11 hardware faults") }
        let boundDataModel = self.dataModel
        let result: Result<UInt64, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard let server = dataModel.cluster(GeneralDiagnosticsServer.self, on: .root),
                let number = server.changeHardwareFaults(to: current)
            else {
                return .failure(ControlFailure("the device has no GeneralDiagnostics cluster"))
            }
            return .success(number)
        }
        return try result.get()
    }

    /// `identify`: IdentifyTime counts down from `seconds` (0 stops), as an Identify command would.
    func identify(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let endpoint = request["endpoint"] == nil ? EndpointID(1) : try Self.endpoint(request)
        guard let seconds = Self.integer(request["seconds"]), let time = UInt16(exactly: seconds) else {
            throw ControlFailure("\"seconds\" must be 0...65535")
        }
        try await invoke(
            endpoint: endpoint, cluster: .identify, command: .Identify.identify,
            fields: [TLVElement(tag: .context(0), .unsigned(UInt64(time)))], name: "Identify")
        return Self.answer(["seconds": Int(time)])
    }

    /// `open-window`: a basic window (the device's own passcode) or an enhanced one (a fresh passcode,
    /// and a discriminator of the request's choice or a random one); answers with the codes that
    /// commission through it.
    func openWindow(_ request: [String: Any]) async throws(ControlFailure) -> String {
        let timeout = request["timeout"] == nil ? 180 : Self.integer(request["timeout"]) ?? -1
        guard let seconds = UInt16(exactly: timeout), (180...900).contains(seconds) else {
            throw ControlFailure("\"timeout\" must be 180...900 seconds")
        }
        let mode = request["mode"] as? String ?? "enhanced"
        var payload = setupPayload
        switch mode {
        case "basic":
            try await invoke(
                endpoint: .root, cluster: .administratorCommissioning,
                command: .AdministratorCommissioning.openBasicCommissioningWindow,
                fields: [TLVElement(tag: .context(0), .unsigned(UInt64(seconds)))], name: "OpenBasicCommissioningWindow"
            )
        case "enhanced":
            var random = SystemRandomNumberGenerator()
            let discriminator: UInt16
            if let given = request["discriminator"] {
                guard let number = Self.integer(given), let value = UInt16(exactly: number), value <= 0xFFF else {
                    throw ControlFailure("\"discriminator\" must be 0...4095")
                }
                discriminator = value
            } else {
                discriminator = UInt16.random(in: 0...0xFFF, using: &random)
            }
            var passcode: UInt32
            repeat {
                passcode = UInt32.random(in: 1...99_999_998, using: &random)
            } while (try? SetupPasscode.validate(passcode)) == nil
            let iterations: UInt32 = 1000
            let verifier: Spake2PlusPasscodeVerifier
            let salt: [UInt8]
            do {
                salt = try SecureRandom.bytes(count: 32)
                verifier = try Spake2PlusPasscodeVerifier(passcode: passcode, salt: salt, iterations: Int(iterations))
            } catch {
                throw ControlFailure("cannot make a passcode verifier: \(error)")
            }
            try await invoke(
                endpoint: .root, cluster: .administratorCommissioning,
                command: .AdministratorCommissioning.openCommissioningWindow,
                fields: [
                    TLVElement(tag: .context(0), .unsigned(UInt64(seconds))),
                    TLVElement(tag: .context(1), .bytes(verifier.serialized)),
                    TLVElement(tag: .context(2), .unsigned(UInt64(discriminator))),
                    TLVElement(tag: .context(3), .unsigned(UInt64(iterations))),
                    TLVElement(tag: .context(4), .bytes(salt)),
                ], name: "OpenCommissioningWindow")
            payload.discriminator = .long(discriminator)
            payload.passcode = passcode
        default:
            throw ControlFailure("\"mode\" must be \"basic\" or \"enhanced\"")
        }
        do {
            return Self.answer([
                "mode": mode, "timeout": Int(seconds), "discriminator": Int(payload.discriminator.longValue ?? 0),
                "passcode": Int(payload.passcode), "qrCode": try SetupQRCode.encode(payload),
                "manualCode": try ManualPairingCode.encode(payload),
            ])
        } catch {
            throw ControlFailure("the window is open, but its codes cannot be encoded: \(error)")
        }
    }

    /// `close-window`: RevokeCommissioning.
    func closeWindow() async throws(ControlFailure) -> String {
        try await invoke(
            endpoint: .root, cluster: .administratorCommissioning,
            command: .AdministratorCommissioning.revokeCommissioning, fields: [], name: "RevokeCommissioning")
        return Self.answer()
    }

    /// Invokes a command through the data model with the node's own authority; a failure status
    /// comes back as a failure naming it.
    func invoke(endpoint: EndpointID, cluster: ClusterID, command: CommandID, fields: [TLVElement], name: String)
        async throws(ControlFailure)
    {
        let boundDataModel = self.dataModel
        let result: Result<Void, ControlFailure> = await node.run { node in
            let dataModel = boundDataModel.value(in: node)
            guard dataModel.cluster(cluster, on: endpoint) != nil else {
                return .failure(ControlFailure("endpoint \(endpoint.rawValue) has no cluster \(cluster)"))
            }
            do throws(StatusIB) {
                _ = try dataModel.invoke(
                    ConcreteCommandPath(endpoint: endpoint, cluster: cluster, command: command),
                    fields: TLVElement(.structure(fields)), context: .control)
                return .success(())
            } catch {
                return .failure(ControlFailure("\(name): \(Self.statusText(error, cluster: cluster))"))
            }
        }
        try result.get()
    }

    /// A status as text; AdministratorCommissioning's cluster codes by name.
    static func statusText(_ status: StatusIB, cluster: ClusterID) -> String {
        if cluster == .administratorCommissioning, let code = status.clusterStatus {
            switch code {
            case 2: return "BUSY (a window is open or a fail-safe is armed)"
            case 3: return "PAKE_PARAMETER_ERROR"
            case 4: return "WINDOW_NOT_OPEN (no commissioning window is open)"
            default: break
            }
        }
        return "\(status)"
    }

    /// The request's `fields` (a JSON object, fields by name or tag; absent: none) as the structure
    /// `fields` of `name` describe (an event's or a command's).
    static func fields(_ request: [String: Any], _ name: String, _ fields: [FieldSchema]) throws(ControlFailure)
        -> TLVValue
    {
        let json = request["fields"] ?? [String: Any]()
        guard json is [String: Any] else { throw ControlFailure("\"fields\" must be a JSON object") }
        do {
            return try ClusterValueCodec.encode(
                text: cliText(json), as: .structure(StructSchema(name, fields)), nullable: false, context: name)
        } catch {
            throw ControlFailure("\(error)")
        }
    }

    static func endpoint(_ request: [String: Any]) throws(ControlFailure) -> EndpointID {
        guard let number = Self.integer(request["endpoint"]), let id = UInt16(exactly: number) else {
            throw ControlFailure("\"endpoint\" must be an endpoint number")
        }
        return EndpointID(id)
    }

    static func cluster(_ request: [String: Any]) throws(ControlFailure) -> ClusterSchema {
        guard let name = ControlTarget.name(request["cluster"]) else {
            throw ControlFailure("\"cluster\" must be a cluster name or ID")
        }
        do {
            return try ClusterRegistry.standard.requireCluster(named: name)
        } catch {
            throw ControlFailure("\(error)")
        }
    }
}
