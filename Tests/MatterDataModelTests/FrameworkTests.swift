import Dispatch
import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

/// A root-node cluster written the way MatterDevice writes its own: a subclass of ClusterServer.
final class BreadcrumbServer: ClusterServer, @unchecked Sendable {
    private(set) var breadcrumb: UInt64 = 0
    private(set) var started = 0

    init() { super.init(id: .generalCommissioning, revision: 2) }

    override var attributes: [AttributeInfo] { [AttributeInfo(.GeneralCommissioning.breadcrumb, write: .administer)] }

    override var acceptedCommands: [CommandInfo] {
        [CommandInfo(.GeneralCommissioning.armFailSafe, privilege: .administer)]
    }

    override var generatedCommands: [CommandID] { [.GeneralCommissioning.armFailSafeResponse] }

    override func start() {
        started += 1
        if case .unsigned(let stored)? = loadPersisted(.GeneralCommissioning.breadcrumb) { breadcrumb = stored }
    }

    override func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        guard attribute == .GeneralCommissioning.breadcrumb else { throw StatusIB(.unsupportedAttribute) }
        return .unsigned(breadcrumb)
    }

    override func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        breadcrumb = try WriteValue(write).unsigned(UInt64.self)
        persist(attribute, .unsigned(breadcrumb))
        attributeChanged(attribute)
    }

    override func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        breadcrumb = try fields.unsigned(1, UInt64.self)
        attributeChanged(.GeneralCommissioning.breadcrumb)
        return CommandResponse(
            command: .GeneralCommissioning.armFailSafeResponse,
            fields: .structure([TLVElement(tag: .context(0), .unsigned(0)), TLVElement(tag: .context(1), .utf8(""))]))
    }
}

@Suite("Framework: composition, globals, versions, change log, timers")
struct FrameworkTests {
    func deviceTypes(_ value: TLVValue?) -> [[UInt64]] {
        (value?.members ?? []).map { entry in [entry[context: 0]?.uint ?? 0, entry[context: 1]?.uint ?? 0] }
    }

    func numbers(_ value: TLVValue?) -> [UInt64] { (value?.members ?? []).compactMap(\.uint) }

    @Test func descriptorIsGeneratedFromTheComposition() throws {
        let bench = try Bench(.dimmableLight)
        #expect(deviceTypes(bench.value(0, .descriptor, .Descriptor.deviceTypeList)) == [[0x0016, 4]])
        #expect(numbers(bench.value(0, .descriptor, .Descriptor.serverList)) == [0x1D, 0x28])
        #expect(numbers(bench.value(0, .descriptor, .Descriptor.partsList)) == [1])
        #expect(deviceTypes(bench.value(1, .descriptor, .Descriptor.deviceTypeList)) == [[0x0101, 3]])
        #expect(numbers(bench.value(1, .descriptor, .Descriptor.serverList)) == [0x03, 0x04, 0x06, 0x08, 0x1D, 0x62])
        #expect(numbers(bench.value(1, .descriptor, .Descriptor.partsList)) == [])
        #expect(numbers(bench.value(1, .descriptor, .Descriptor.clientList)) == [])
    }

    @Test func globalAttributesAreListedOnceAndServed() throws {
        let bench = try Bench(.extendedColorLight)
        for endpoint in bench.model.endpoints {
            for cluster in bench.model.clusters(endpoint: endpoint) {
                let ids = bench.model.attributes(endpoint: endpoint, cluster: cluster).map(\.id)
                #expect(ids.filter { $0 == .featureMap }.count == 1, "\(endpoint) \(cluster)")
                #expect(ids.filter { $0 == .clusterRevision }.count == 1, "\(endpoint) \(cluster)")
                // The engine synthesizes the three lists; the data model must not list them too.
                #expect(!ids.contains(.attributeList) && !ids.contains(.acceptedCommandList))
                #expect(!ids.contains(.generatedCommandList))
                #expect(Set(ids).count == ids.count, "\(endpoint) \(cluster): duplicate attribute IDs")
            }
        }
        #expect(bench.value(1, .onOff, .featureMap) == .unsigned(0x01))
        #expect(bench.value(1, .onOff, .clusterRevision) == .unsigned(6))
        #expect(bench.value(1, .levelControl, .featureMap) == .unsigned(0x03))
        #expect(bench.value(1, .colorControl, .featureMap) == .unsigned(0x18))
        #expect(bench.value(1, .colorControl, .ColorControl.colorCapabilities) == .unsigned(0x18))
        #expect(bench.value(1, .groups, .featureMap) == .unsigned(0x01))
        // Matter 1.5's Descriptor is revision 3 (EndpointUniqueID, optional, added); the hand-written schema said 2.
        #expect(bench.value(0, .descriptor, .clusterRevision) == .unsigned(3))
        #expect(bench.value(0, .basicInformation, .clusterRevision) == .unsigned(5))
        #expect(bench.value(1, .colorControl, .clusterRevision) == .unsigned(8))
        #expect(bench.value(1, .identify, .clusterRevision) == .unsigned(6))
    }

    @Test func presetsHaveTheirNamesProductIDsAndRequiredClusters() throws {
        let first = Array(DevicePreset.all.prefix(6))
        #expect(
            first.map(\.cliName) == [
                "on-off-light", "dimmable-light", "color-temperature-light", "extended-color-light",
                "on-off-plug-in-unit", "door-lock",
            ])
        #expect(first.map(\.productID.rawValue) == [0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006])
        #expect(first.map(\.deviceType.id.rawValue) == [0x0100, 0x0101, 0x010C, 0x010D, 0x010A, 0x000A])
        let expected: [DevicePreset: [UInt32]] = [
            .onOffLight: [0x03, 0x04, 0x06, 0x1D, 0x62],
            .dimmableLight: [0x03, 0x04, 0x06, 0x08, 0x1D, 0x62],
            .colorTemperatureLight: [0x03, 0x04, 0x06, 0x08, 0x1D, 0x62, 0x0300],
            .extendedColorLight: [0x03, 0x04, 0x06, 0x08, 0x1D, 0x62, 0x0300],
            .onOffPlug: [0x03, 0x04, 0x06, 0x1D, 0x62],
            .doorLock: [0x03, 0x1D, 0x0101],
        ]
        for preset in first {
            let bench = try Bench(preset)
            #expect(bench.model.clusters(endpoint: EndpointID(1)).map(\.rawValue) == expected[preset], "\(preset)")
            #expect(bench.model.clusters(endpoint: .root).map(\.rawValue) == [0x1D, 0x28])
            #expect(
                bench.value(0, .basicInformation, .BasicInformation.productID)
                    == .unsigned(UInt64(preset.productID.rawValue)))
            #expect(try DevicePreset(cliName: preset.cliName) == preset)
        }
        #expect(try DevicePreset(cliName: "on-off-plug") == .onOffPlug)
        #expect(throws: DataModelError.unknownPreset("toaster")) { try DevicePreset(cliName: "toaster") }
        #expect(DataModelError.unknownPreset("toaster").description.contains("dimmable-light"))
    }

    @Test func theCatalogueServesEverySimpleDeviceTypeThatCanStandAlone() throws {
        let all = DevicePreset.all
        #expect(Set(all.map(\.cliName)).count == all.count)
        #expect(Set(all.map(\.productID)).count == all.count)
        #expect(all.count >= 40, "\(all.map(\.cliName))")
        for preset in all {
            // Endpoint 1 has every server cluster the device type makes mandatory, and the device type itself.
            let bench = try Bench(preset)
            let served = Set(bench.model.clusters(endpoint: EndpointID(1)))
            for requirement in preset.schema.clusters
            where requirement.side == .server && requirement.conformance == .mandatory {
                #expect(served.contains(requirement.cluster), "\(preset): \(requirement.name)")
            }
            #expect(try DevicePreset(cliName: preset.schema.name) == preset)
        }
        let sensor = try DevicePreset(cliName: "temperature-sensor")
        #expect(sensor.productID.rawValue == 0x8302)
        #expect(sensor.productName == "Temperature Sensor")
        #expect(
            sensor.deviceType == DeviceType(DeviceTypeID(0x0302), revision: DeviceTypeSchema.temperatureSensor.revision)
        )
        #expect(try DevicePreset(cliName: "mounted-on-off-control").productName == "Mounted On/Off Control")
        // Controllers are named with the reason they are not served.
        #expect(throws: DataModelError.self) { try DevicePreset(cliName: "door-lock-controller") }
        do {
            _ = try DevicePreset(cliName: "door-lock-controller")
        } catch {
            #expect(error.description.contains("a controller device type (it commands DoorLock of other devices)"))
        }
        // A switch commands lights through Binding: served, with its client clusters and a Binding server.
        let dimmer = try Bench(DevicePreset(cliName: "dimmer-switch"))
        #expect(Set(dimmer.model.clusters(endpoint: EndpointID(1))).isSuperset(of: [.identify, .binding]))
        #expect(dimmer.model.endpoint(EndpointID(1))?.clientClusters.contains(.levelControl) == true)
    }

    @Test func composedDeviceTypesHaveTheirPartsOnEndpointsOfTheirOwnOrBesideThem() throws {
        func types(_ bench: Bench, _ endpoint: UInt16) -> [UInt64] {
            guard case .array(let list)? = bench.value(endpoint, .descriptor, .Descriptor.deviceTypeList) else {
                return []
            }
            return list.compactMap { entry in
                guard case .structure(let fields) = entry.value, case .unsigned(let id)? = fields.first?.value else {
                    return nil
                }
                return id
            }
        }
        func numbers(_ value: TLVValue?) -> [UInt64] {
            guard case .array(let list)? = value else { return [] }
            return list.compactMap { if case .unsigned(let n) = $0.value { n } else { nil } }
        }
        // A refrigerator: its cabinet is endpoint 2, listed in endpoint 1's PartsList and on endpoint 0's.
        let fridge = try Bench(DevicePreset(cliName: "refrigerator"))
        #expect(types(fridge, 1) == [0x0070])
        #expect(types(fridge, 2) == [0x0071])
        #expect(numbers(fridge.value(1, .descriptor, .Descriptor.partsList)) == [2])
        #expect(numbers(fridge.value(0, .descriptor, .Descriptor.partsList)) == [1, 2])
        #expect(numbers(fridge.value(2, .descriptor, .Descriptor.partsList)) == [])
        #expect(Set(fridge.model.clusters(endpoint: EndpointID(2))).isSuperset(of: [.temperatureControl]))
        // An EVSE: its utility parts (Power Source, Device Energy Management, Electrical Sensor) share its endpoint,
        // with the features the EVSE asks of them (DEM's power forecast reporting).
        let evse = try Bench(DevicePreset(cliName: "energy-evse"))
        #expect(types(evse, 1) == [0x050C, 0x0011, 0x050D, 0x0510])
        #expect(
            Set(evse.model.clusters(endpoint: EndpointID(1))).isSuperset(of: [
                .powerSource, .deviceEnergyManagement, .electricalPowerMeasurement, .electricalEnergyMeasurement,
                .powerTopology,
            ]))
        let forecast = try #require(ClusterSchema.deviceEnergyManagement.feature(named: "PowerForecastReporting"))
        #expect(
            evse.model.cluster(.deviceEnergyManagement, on: EndpointID(1)).map { $0.featureMap & forecast.mask } != 0)
        #expect(evse.model.endpoints == [.root, EndpointID(1)])
        // A battery storage: two Power Sources and two Electrical Sensors, told apart by semantic tags (the battery's
        // Power Source with BAT, REPLC for its BatCapacity and RECHG for its charging attributes).
        let battery = try Bench(DevicePreset(cliName: "battery-storage"))
        #expect(types(battery, 1) == [0x0018, 0x050D])
        #expect(numbers(battery.value(1, .descriptor, .Descriptor.partsList)) == [2, 3, 4, 5])
        #expect(types(battery, 5) == [0x0011])
        #expect(battery.value(5, .descriptor, .featureMap) == .unsigned(1))
        #expect(
            battery.value(5, .descriptor, .Descriptor.tagList)
                == .array([TLVElement(SemanticTag.battery.tlv)]))
        #expect(battery.value(5, .powerSource, .PowerSource.batCapacity) != nil)
        #expect(battery.value(1, .descriptor, .featureMap) == .unsigned(0))
        #expect(battery.value(1, .descriptor, .Descriptor.tagList) == nil)
        // A video doorbell: a camera and a doorbell, each an endpoint of its own; the camera's WebRTC requestor and
        // the doorbell's chime in their ClientLists.
        let doorbell = try Bench(DevicePreset(cliName: "video-doorbell"))
        #expect(types(doorbell, 2) == [0x0142])
        #expect(types(doorbell, 3) == [0x0148])
        #expect(doorbell.model.endpoint(EndpointID(2))?.clientClusters == [.webRtcTransportRequestor])
        #expect(doorbell.model.endpoint(EndpointID(3))?.clientClusters == [.chime])
        // A part cannot be bridged alone when it is made of several endpoints.
        #expect(throws: DataModelError.self) {
            try DevicePreset(cliName: "refrigerator").makeBridgedEndpoint(EndpointID(2), label: "Fridge", uniqueID: "1")
        }
        let bridgedEVSE = try DevicePreset(cliName: "energy-evse").makeBridgedEndpoint(
            EndpointID(2), label: "Charger", uniqueID: "2")
        #expect(bridgedEVSE.isBridgedNode)
        #expect(bridgedEVSE.cluster(.powerSource) != nil)
    }

    @Test func everyCommandACatalogueDeviceAcceptsHasABehaviour() throws {
        var missing: [String] = []
        for preset in DevicePreset.all {
            let bench = try Bench(preset)
            for endpoint in bench.model.endpoints where endpoint != .root {
                for id in bench.model.clusters(endpoint: endpoint) {
                    guard let server = bench.model.cluster(id, on: endpoint) as? GenericClusterServer else { continue }
                    for command in server.acceptedCommands where !server.hasBehaviour(command.id) {
                        let name = server.schema.command(command.id)?.name ?? "\(command.id)"
                        missing.append("\(preset.cliName) endpoint \(endpoint.rawValue) \(server.schema.name).\(name)")
                    }
                }
            }
        }
        #expect(missing.isEmpty, "answered UNSUPPORTED_COMMAND: \(missing.joined(separator: ", "))")
    }

    @Test func compositionMistakesThrow() throws {
        let first = try #require(DevicePreset.onOffLight.makeApplicationEndpoints().first)
        let second = try #require(DevicePreset.onOffPlug.makeApplicationEndpoints().first)
        #expect(throws: DataModelError.duplicateEndpoint(EndpointID(1))) {
            try DeviceDataModel(endpoints: [first, second])
        }
        let endpoint = Endpoint(EndpointID(2), deviceTypes: [.onOffLight])
        try endpoint.add(OnOffServer())
        #expect(throws: DataModelError.duplicateCluster(.onOff, endpoint: EndpointID(2))) {
            try endpoint.add(OnOffServer())
        }
        let shared = IdentifyServer(identifyType: .none)
        try endpoint.add(shared)
        #expect(throws: DataModelError.clusterInUse(.identify, endpoint: EndpointID(2))) {
            try Endpoint(EndpointID(3), deviceTypes: [], clusters: [shared])
        }
        let model = try DeviceDataModel(endpoints: [endpoint])
        #expect(throws: DataModelError.endpointInUse(EndpointID(2))) { try DeviceDataModel(endpoints: [endpoint]) }
        // The Descriptor was added.
        #expect(model.clusters(endpoint: EndpointID(2)) == [.identify, .onOff, .descriptor])
    }

    @Test func aRootClusterAddedLaterStartsAndIsDescribed() throws {
        let store = InMemoryAttributeStore()
        let bench = try Bench(.onOffLight, store: store)
        let root = try #require(bench.model.endpoint(.root))
        let server = BreadcrumbServer()
        try root.add(server)
        #expect(server.started == 1)
        #expect(bench.observer.count(.descriptor, .Descriptor.serverList) == 1)
        #expect(bench.model.clusters(endpoint: .root) == [.descriptor, .basicInformation, .generalCommissioning])
        let ids = bench.model.attributes(endpoint: .root, cluster: .generalCommissioning).map(\.id)
        #expect(ids == [.GeneralCommissioning.breadcrumb, .featureMap, .clusterRevision])
        #expect(bench.value(0, .generalCommissioning, .clusterRevision) == .unsigned(2))
        #expect(bench.value(0, .generalCommissioning, .featureMap) == .unsigned(0))

        // Writes and commands reach it; changes bump its version and are reported.
        let before = bench.model.dataVersion(endpoint: .root, cluster: .generalCommissioning)
        #expect(bench.write(0, .generalCommissioning, .GeneralCommissioning.breadcrumb, .unsigned(7)) == .success)
        #expect(bench.model.dataVersion(endpoint: .root, cluster: .generalCommissioning) == before &+ 1)
        #expect(
            bench.write(0, .generalCommissioning, .GeneralCommissioning.breadcrumb, .bool(true)) == .invalidDataType)
        let response = try bench.invoke(
            0, .generalCommissioning, .GeneralCommissioning.armFailSafe, [0: .unsigned(60), 1: .unsigned(9)])
        #expect(response?.command == .GeneralCommissioning.armFailSafeResponse)
        #expect(bench.value(0, .generalCommissioning, .GeneralCommissioning.breadcrumb) == .unsigned(9))
        #expect(bench.observer.changes.last?.dataVersion == before &+ 2)
        #expect(bench.log.last == "generalcommissioning 0 breadcrumb: 9")
        // A missing field is INVALID_COMMAND.
        #expect(bench.status(0, .generalCommissioning, .GeneralCommissioning.armFailSafe) == .invalidCommand)

        // Persisted state comes back after a reboot when the device adds the cluster again.
        #expect(bench.write(0, .generalCommissioning, .GeneralCommissioning.breadcrumb, .unsigned(42)) == .success)
        let rebooted = try bench.reboot(.onOffLight)
        let again = BreadcrumbServer()
        try #require(rebooted.model.endpoint(.root)).add(again)
        #expect(again.breadcrumb == 42)
        #expect(store.keys.contains("0/0030/0000"))

        // Removing it stops reporting it.
        #expect(root.remove(.generalCommissioning) === server)
        #expect(bench.model.clusters(endpoint: .root) == [.descriptor, .basicInformation])
    }

    @Test func endpointsAddedLaterAppearInThePartsList() throws {
        let bench = try Bench(.onOffLight)
        try bench.model.add(DevicePreset.onOffPlug.makeApplicationEndpoints(from: EndpointID(2))[0])
        #expect(numbers(bench.value(0, .descriptor, .Descriptor.partsList)) == [1, 2])
        #expect(bench.observer.count(.descriptor, .Descriptor.partsList) == 1)
        #expect(bench.model.endpoints == [EndpointID(0), EndpointID(1), EndpointID(2)])
        #expect(throws: DataModelError.duplicateEndpoint(EndpointID(2))) {
            try bench.model.add(DevicePreset.onOffPlug.makeApplicationEndpoints(from: EndpointID(2))[0])
        }
    }

    @Test func dataVersionsStartRandomAndCountChanges() throws {
        let a = try Bench(.dimmableLight)
        let versions = a.model.clusters(endpoint: EndpointID(1)).map {
            a.model.dataVersion(endpoint: EndpointID(1), cluster: $0)
        }
        #expect(Set(versions).count == versions.count)
        let before = a.model.dataVersion(endpoint: EndpointID(1), cluster: .onOff)
        try a.invoke(1, .onOff, .OnOff.on)
        let after = a.model.dataVersion(endpoint: EndpointID(1), cluster: .onOff)
        #expect(after != before)
        #expect(
            a.observer.changes.contains {
                $0.cluster == .onOff && $0.attribute == .OnOff.onOff && $0.dataVersion == after
            })
        // Nothing changes, nothing is counted.
        try a.invoke(1, .onOff, .OnOff.on)
        #expect(a.model.dataVersion(endpoint: EndpointID(1), cluster: .onOff) == after)
    }

    @Test func theChangeLogHasOneLinePerChange() throws {
        let bench = try Bench(.dimmableLight)
        try bench.invoke(1, .onOff, .OnOff.toggle)
        try bench.invoke(1, .levelControl, .LevelControl.moveToLevel, [0: .unsigned(100), 1: .unsigned(0)])
        try bench.invoke(1, .onOff, .OnOff.off)
        #expect(bench.log == ["on-off 1 → on", "level 1: 100", "on-off 1 → off"])
        #expect(bench.write(0, .basicInformation, .BasicInformation.nodeLabel, .utf8("Desk")) == .success)
        #expect(bench.log.last == "node-label: \"Desk\"")
    }

    @Test func dispatchTimersRunTransitionsOnTheQueue() async throws {
        let queue = DispatchQueue(label: "device")
        var configuration = DeviceDataModel.Configuration()
        configuration.scheduler = NodeScheduler(clock: configuration.clock, queue: queue)
        let model = try queue.sync { [configuration] in
            try DeviceDataModel(endpoints: DevicePreset.dimmableLight.makeEndpoints(), configuration: configuration)
        }
        let holder = UncheckedBox(model)
        queue.sync {
            holder.value.cluster(OnOffServer.self, on: EndpointID(1))?.on()
            try? holder.value.cluster(LevelControlServer.self, on: EndpointID(1))?.moveToLevel(10, transitionTime: 3)
        }
        // Polls (no timing assertion): the transition must end on its own, driven by Dispatch.
        var level: UInt8?
        for _ in 0..<200 {
            level = queue.sync { holder.value.cluster(LevelControlServer.self, on: EndpointID(1))?.currentLevel }
            if level == 10 { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(level == 10)
        queue.sync { holder.value.shutDown() }
    }
}

/// Moves a queue-confined object into `queue.sync` closures.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
