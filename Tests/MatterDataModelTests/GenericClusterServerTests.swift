import MatterClusters
import MatterCore
import MatterDataModel
import MatterInteraction
import MatterTLV
import MatterTestSupport
import Testing

/// Any cluster of the generated model, placed on an endpoint with a feature set and served from the model
/// alone: attributes from conformance, defaults, writes checked against the model, persistence, commands.
@Suite("Generic cluster server: any cluster of the model")
struct GenericClusterServerTests {
    typealias Temperature = AttributeID.TemperatureMeasurement
    typealias Thermostat = AttributeID.Thermostat

    /// A root node and endpoint 1 with `servers`, over `store`.
    static func model(_ servers: [ClusterServer], store: InMemoryAttributeStore = InMemoryAttributeStore()) throws
        -> DeviceDataModel
    {
        let sensor = try Endpoint(
            EndpointID(1), deviceTypes: [DeviceType(DeviceTypeID(0x0302), revision: 2)], clusters: servers)
        return try DeviceDataModel(
            endpoints: [Endpoint.rootNode(information: DevicePreset.onOffLight.defaultInformation), sensor],
            configuration: DeviceDataModel.Configuration(clock: ManualClock(startingAt: 0), store: store))
    }

    static func read(_ model: DeviceDataModel, _ cluster: ClusterID, _ attribute: AttributeID) throws(StatusIB)
        -> TLVValue
    {
        try model.readAttribute(
            ConcreteAttributePath(endpoint: EndpointID(1), cluster: cluster, attribute: attribute),
            context: .caseSubject())
    }

    static func write(_ model: DeviceDataModel, _ cluster: ClusterID, _ attribute: AttributeID, _ value: TLVValue)
        -> IMStatus
    {
        do throws(StatusIB) {
            try model.writeAttribute(
                ConcreteAttributePath(endpoint: EndpointID(1), cluster: cluster, attribute: attribute),
                .replace(value), context: .caseSubject())
            return .success
        } catch {
            return error.status
        }
    }

    @Test func mandatoryAttributesWithTheirDefaults() throws {
        let server = try GenericClusterServer(.temperatureMeasurement)
        let model = try Self.model([server])
        #expect(
            server.attributes.map(\.id) == [
                Temperature.measuredValue, Temperature.minMeasuredValue, Temperature.maxMeasuredValue,
            ])
        #expect(try Self.read(model, .temperatureMeasurement, Temperature.measuredValue) == .null)
        #expect(try Self.read(model, .temperatureMeasurement, .clusterRevision) == .unsigned(4))
        #expect(throws: StatusIB.self) { try Self.read(model, .temperatureMeasurement, Temperature.tolerance) }
        // A reading from the node's side is checked and reported.
        try server.set(Temperature.measuredValue, .signed(2150))
        #expect(try Self.read(model, .temperatureMeasurement, Temperature.measuredValue) == .signed(2150))
        #expect(throws: StatusIB(.constraintError)) { try server.set(Temperature.measuredValue, .signed(40_000)) }
        #expect(throws: StatusIB(.invalidDataType)) { try server.set(Temperature.measuredValue, .utf8("warm")) }
    }

    @Test func featuresDecideTheAttributesAndTheFeatureMap() throws {
        let heating = try GenericClusterServer(.thermostat, features: ["HEAT"])
        let model = try Self.model([heating])
        let ids = Set(heating.attributes.map(\.id))
        #expect(ids.contains(Thermostat.occupiedHeatingSetpoint))
        #expect(!ids.contains(Thermostat.occupiedCoolingSetpoint))
        #expect(try Self.read(model, .thermostat, .featureMap) == .unsigned(0x01))
        #expect(try Self.read(model, .thermostat, Thermostat.occupiedHeatingSetpoint) == .signed(2000))
        // Writes are checked against the model: type, range, enumeration values.
        #expect(Self.write(model, .thermostat, Thermostat.occupiedHeatingSetpoint, .signed(2100)) == .success)
        #expect(Self.write(model, .thermostat, Thermostat.occupiedHeatingSetpoint, .utf8("x")) == .invalidDataType)
        #expect(Self.write(model, .thermostat, Thermostat.systemMode, .unsigned(0x42)) == .constraintError)
        #expect(Self.write(model, .thermostat, Thermostat.systemMode, .unsigned(4)) == .success)
        // The specification's conformance refuses what a feature set forbids.
        #expect(throws: GenericClusterServer.ConfigurationError.self) {
            try GenericClusterServer(.onOff, features: ["OFFONLY", "LT"])
        }
        #expect(throws: GenericClusterServer.ConfigurationError.self) {
            try GenericClusterServer(.thermostat, features: ["NOSUCH"])
        }
        #expect(throws: GenericClusterServer.ConfigurationError.self) {
            try GenericClusterServer(.temperatureMeasurement, values: [Temperature.measuredValue: .utf8("warm")])
        }
    }

    @Test func writableListsAreCheckedAndPersisted() throws {
        let store = InMemoryAttributeStore()
        let labels = try GenericClusterServer(.userLabel)
        let model = try Self.model([labels], store: store)
        let entry = { (label: String, value: String) in
            TLVElement(
                .structure([TLVElement(tag: .context(0), .utf8(label)), TLVElement(tag: .context(1), .utf8(value))]))
        }
        let list = TLVValue.array([entry("room", "hall")])
        #expect(Self.write(model, .userLabel, AttributeID.UserLabel.labelList, list) == .success)
        #expect(try Self.read(model, .userLabel, AttributeID.UserLabel.labelList) == list)
        let tooLong = TLVValue.array([entry(String(repeating: "x", count: 17), "hall")])
        #expect(Self.write(model, .userLabel, AttributeID.UserLabel.labelList, tooLong) == .constraintError)
        // Non-volatile: the same store gives the value back after a restart.
        model.shutDown()
        let again = try Self.model([try GenericClusterServer(.userLabel)], store: store)
        #expect(try Self.read(again, .userLabel, AttributeID.UserLabel.labelList) == list)
    }

    @Test func commandsNeedABehaviour() throws {
        let identify = try GenericClusterServer(.identify)
        let model = try Self.model([identify])
        #expect(identify.acceptedCommands.map(\.id) == [CommandID.Identify.identify])
        let path = ConcreteCommandPath(endpoint: EndpointID(1), cluster: .identify, command: .Identify.identify)
        let request = TLVElement(.structure([TLVElement(tag: .context(0), .unsigned(5))]))
        #expect(throws: StatusIB(.unsupportedCommand)) {
            try model.invoke(path, fields: request, context: .caseSubject())
        }
        identify.handle(.Identify.identify) { server, fields, _ throws(StatusIB) in
            try server.set(.Identify.identifyTime, .unsigned(UInt64(try fields.unsigned(0, UInt16.self))))
            return nil
        }
        _ = try model.invoke(path, fields: request, context: .caseSubject())
        #expect(try Self.read(model, .identify, .Identify.identifyTime) == .unsigned(5))
    }
}
