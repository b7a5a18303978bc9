package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Any cluster of the generated model on an endpoint, with a feature set: it serves every attribute the
/// conformance makes mandatory for those features (and the optional ones asked for) with its default or a given
/// value, persists the non-volatile ones, checks writes against the model's type, range, length and
/// enumeration (CONSTRAINT_ERROR, INVALID_DATA_TYPE; the engine has already checked privilege and timing),
/// reports changes, and accepts the commands the conformance makes mandatory. A command is answered
/// UNSUPPORTED_COMMAND unless a behaviour is registered for it (``handle(_:_:)``): a cluster's behaviour
/// (a covering's motion, a thermostat's room) is a file over this server and the generated schema.
///
/// ```swift
/// let server = try GenericClusterServer(.temperatureMeasurement, values: [
///     AttributeID.TemperatureMeasurement.measuredValue: .signed(2150),
/// ])
/// ```
package final class GenericClusterServer: ClusterServer {
    /// Why a server could not be made: a feature the cluster does not have, an attribute or command it does
    /// not have or that its conformance forbids with these features, a value that does not fit.
    package struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// What a command's behaviour does with its fields: nothing to answer (SUCCESS), a response, or a status.
    package typealias Behaviour = (GenericClusterServer, CommandFields, InteractionContext) throws(StatusIB) ->
        CommandResponse?

    package let schema: ClusterSchema
    /// The enabled feature codes.
    package let features: Set<String>
    private let served: [AttributeSchema]
    private let commandSchemas: [CommandSchema]
    private var values: [AttributeID: TLVValue] = [:]
    private var behaviours: [CommandID: Behaviour] = [:]
    private let askedEvents: Set<EventID>
    private var changeHandlers: [AttributeID: [ChangeHandler]] = [:]
    private var writeChecks: [AttributeID: WriteCheck] = [:]
    private var startHandlers: [(GenericClusterServer) -> Void] = []
    /// A recorded cluster's GeneratedCommandList (nil: the responses of the accepted commands).
    private let recordedGenerated: [CommandID]?
    /// A recorded cluster answers an accepted command without a behaviour with success (a response command
    /// with its mandatory fields at their least values), not UNSUPPORTED_COMMAND.
    private let answersEveryCommand: Bool

    /// True for a cluster as a recording has it (``init(recorded:revision:featureMap:attributes:accepted:generated:)``):
    /// a behaviour leaves the recorded state as it found it.
    var isRecorded: Bool { recordedGenerated != nil }

    /// What runs after an attribute's value changed (from a write, the control plane or a behaviour): the
    /// server, the old value and the new one.
    package typealias ChangeHandler = (GenericClusterServer, TLVValue?, TLVValue) -> Void

    /// `features`: feature codes (`LT`) or names (`Lighting`); `optionalAttributes` and `optionalCommands`:
    /// elements the conformance allows but does not require; `values`: initial values instead of the defaults.
    package init(
        _ schema: ClusterSchema, features: [String] = [], optionalAttributes: [AttributeID] = [],
        optionalCommands: [CommandID] = [], optionalEvents: [EventID] = [], values: [AttributeID: TLVValue] = [:]
    ) throws(ConfigurationError) {
        var codes: Set<String> = []
        var map: UInt32 = 0
        for name in features {
            guard let feature = schema.feature(named: name) else {
                throw ConfigurationError(description: "\(schema.name) has no feature '\(name)'")
            }
            codes.insert(feature.code)
            map |= feature.mask
        }
        for feature in schema.features where codes.contains(feature.code) {
            guard feature.conformance.presence(features: codes) != .disallowed else {
                throw ConfigurationError(
                    description: "\(schema.name): feature \(feature.code) is not allowed with these")
            }
        }
        self.schema = schema
        self.features = codes
        let names = Set(schema.attributes.map(\.name))
        // A name in a conformance is a feature code, or another element of the cluster (present when it is
        // mandatory or asked for); anything else (a device condition) is unknown.
        let asked = Set(optionalAttributes)
        func isTrue(_ name: String) -> Bool? {
            if codes.contains(name) { return true }
            if schema.features.contains(where: { $0.code == name }) { return false }
            if names.contains(name) {
                return schema.attributes.first { $0.name == name }.map { asked.contains($0.id) }
            }
            return nil
        }
        var served: [AttributeSchema] = []
        for attribute in schema.attributes {
            switch attribute.conformance.presence(isTrue) {
            case .mandatory: served.append(attribute)
            case .optional where asked.contains(attribute.id): served.append(attribute)
            case .disallowed where asked.contains(attribute.id):
                throw ConfigurationError(
                    description: "\(schema.name).\(attribute.name) is not allowed with features \(codes.sorted())")
            default: break
            }
        }
        for id in asked where !schema.attributes.contains(where: { $0.id == id }) {
            throw ConfigurationError(description: "\(schema.name) has no attribute \(id)")
        }
        let askedCommands = Set(optionalCommands)
        var commands: [CommandSchema] = []
        for command in schema.commands {
            switch command.conformance.presence(isTrue) {
            case .mandatory: commands.append(command)
            case .optional where askedCommands.contains(command.id): commands.append(command)
            default: break
            }
        }
        for id in askedCommands where !commands.contains(where: { $0.id == id }) {
            throw ConfigurationError(description: "\(schema.name) has no command \(id) allowed with these features")
        }
        for id in optionalEvents {
            guard let event = schema.event(id), event.conformance.presence(isTrue) != .disallowed else {
                throw ConfigurationError(description: "\(schema.name) has no event \(id) allowed with these features")
            }
        }
        self.askedEvents = Set(optionalEvents)
        self.served = served
        self.commandSchemas = commands
        self.recordedGenerated = nil
        self.answersEveryCommand = false
        for attribute in served { self.values[attribute.id] = ClusterValueCheck.initialValue(of: attribute) }
        for (id, value) in values {
            guard let attribute = served.first(where: { $0.id == id }) else {
                throw ConfigurationError(description: "\(schema.name) serves no attribute \(id) here")
            }
            do {
                try Self.check(value, attribute, in: schema)
            } catch {
                throw ConfigurationError(description: "\(schema.name).\(attribute.name): \(error)")
            }
            self.values[id] = value
        }
        super.init(id: schema.id, revision: schema.revision, featureMap: map)
    }

    /// A cluster as a recording has it (a twin of a recorded device): exactly the `attributes` given, in this
    /// order and with these values, the `accepted` and `generated` commands, this FeatureMap and
    /// ClusterRevision. Values are not checked (they are what a device sent); attributes and commands the
    /// model does not know (a vendor's) are served read-only and accepted with the view and operate
    /// privileges. An accepted command without a behaviour answers success: a response command, where the
    /// model gives it one, with its mandatory fields at their least values.
    package init(
        recorded schema: ClusterSchema, revision: UInt16, featureMap: UInt32,
        attributes: [(id: AttributeID, value: TLVValue)], accepted: [CommandID], generated: [CommandID]
    ) {
        self.schema = schema
        self.features = Set(schema.features.filter { featureMap & $0.mask != 0 }.map(\.code))
        self.served = attributes.map { recorded in
            schema.attribute(recorded.id) ?? Self.unknownAttribute(recorded.id, value: recorded.value)
        }
        self.commandSchemas = accepted.map { id in
            schema.command(id) ?? CommandSchema(id, "Command0x" + String(id.rawValue, radix: 16, uppercase: true))
        }
        self.askedEvents = []
        self.recordedGenerated = generated
        self.answersEveryCommand = true
        for recorded in attributes { self.values[recorded.id] = recorded.value }
        super.init(id: schema.id, revision: revision, featureMap: featureMap)
    }

    /// A read-only attribute the model does not know, typed by its recorded value's kind (a list is a list).
    private static func unknownAttribute(_ id: AttributeID, value: TLVValue) -> AttributeSchema {
        let type: ClusterDataType
        switch value {
        case .array, .list: type = .list(.bytes)
        default: type = .bytes
        }
        return AttributeSchema(id, "Attribute0x" + String(id.rawValue, radix: 16, uppercase: true), type)
    }

    /// True when `command` has a behaviour (else the server answers it UNSUPPORTED_COMMAND, or as recorded).
    package func hasBehaviour(_ command: CommandID) -> Bool { behaviours[command] != nil }

    /// Makes `command` do `behaviour` (it must be one of the accepted commands).
    package func handle(_ command: CommandID, _ behaviour: @escaping Behaviour) {
        behaviours[command] = behaviour
    }

    /// What a behaviour checks of a value a client writes beyond the model's own constraints (a constraint
    /// on other attributes: a setpoint within its limits); it throws the status the write answers.
    package typealias WriteCheck = (GenericClusterServer, TLVValue) throws(StatusIB) -> Void

    /// Makes a client's write of `attribute` pass `check` first (the control plane and behaviours are not
    /// checked: they move the physical world).
    package func checkWrites(_ attribute: AttributeID, _ check: @escaping WriteCheck) {
        writeChecks[attribute] = check
    }

    /// Runs `handler` after every change of `attribute`'s value (a behaviour's reaction: an event, a
    /// dependent attribute).
    package func onChange(_ attribute: AttributeID, _ handler: @escaping ChangeHandler) {
        changeHandlers[attribute, default: []].append(handler)
    }

    /// Records event `id` of this cluster with the priority the model gives it.
    @discardableResult
    package func recordEvent(_ id: EventID, fields: TLVValue = .structure([])) -> UInt64? {
        guard let event = schema.event(id) else { return nil }
        return recordEvent(id, priority: event.priority, fields: fields)
    }

    /// The current value of `attribute`, if served.
    package func value(_ attribute: AttributeID) -> TLVValue? { values[attribute] }

    /// Sets a served attribute from the node's side (a sensor's reading, a behaviour's state): checked
    /// against the model, persisted if non-volatile, reported if changed.
    package func set(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        guard let schema = served.first(where: { $0.id == attribute }) else { throw StatusIB(.unsupportedAttribute) }
        do {
            try Self.check(value, schema, in: self.schema)
        } catch {
            throw StatusIB(error.isConstraint ? .constraintError : .invalidDataType)
        }
        guard values[attribute] != value else { return }
        let old = values[attribute]
        values[attribute] = value
        if schema.quality.contains(.nonVolatile) { persist(attribute, value) }
        attributeChanged(attribute, quiet: schema.quality.contains(.changesOmitted))
        for handler in changeHandlers[attribute] ?? [] { handler(self, old, value) }
    }

    static func check(_ value: TLVValue, _ attribute: AttributeSchema, in cluster: ClusterSchema)
        throws(ClusterValueCheck.Failure)
    {
        try ClusterValueCheck.check(
            value, type: attribute.type, nullable: attribute.isNullable, constraint: attribute.constraint,
            enumeration: attribute.typeName.flatMap { cluster.enumeration(named: $0) }, path: attribute.name)
    }

    // MARK: - ClusterServer

    override package var attributes: [AttributeInfo] { served.map(AttributeInfo.init) }

    override package var acceptedCommands: [CommandInfo] { commandSchemas.map(CommandInfo.init) }

    override package var generatedCommands: [CommandID] {
        if let recordedGenerated { return recordedGenerated }
        var ids: [CommandID] = []
        for command in commandSchemas {
            if case .command(let id) = command.response, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    override package var events: [EventInfo] {
        schema.events.filter {
            $0.conformance.presence(features: features) == .mandatory || askedEvents.contains($0.id)
        }
        .map(EventInfo.init)
    }

    override package func fabricRemoved(_ fabricIndex: UInt8) {
        for attribute in served where attribute.isFabricScoped {
            guard case .array(let entries)? = values[attribute.id] else { continue }
            try? set(attribute.id, .array(entries.filter { Self.fabric(of: $0) != fabricIndex }))
        }
    }

    override package func start() {
        for attribute in served where attribute.quality.contains(.nonVolatile) {
            if let stored = loadPersisted(attribute.id), (try? Self.check(stored, attribute, in: schema)) != nil {
                values[attribute.id] = stored
            }
        }
        for handler in startHandlers { handler(self) }
    }

    /// Runs `handler` when the server starts in a running data model, its persisted values loaded (a
    /// behaviour's timers start there).
    package func onStart(_ handler: @escaping (GenericClusterServer) -> Void) {
        startHandlers.append(handler)
    }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        guard let value = values[attribute] else { throw StatusIB(.unsupportedAttribute) }
        // A fabric-filtered read of a fabric-scoped list shows the accessing fabric's entries only.
        if context.isFabricFiltered, case .array(let entries) = value,
            served.first(where: { $0.id == attribute })?.isFabricScoped == true
        {
            return .array(entries.filter { Self.fabric(of: $0) == context.subject.fabricIndex })
        }
        return value
    }

    /// The FabricIndex (tag 0xFE) of a fabric-scoped entry.
    static func fabric(of entry: TLVElement) -> UInt8? {
        guard case .structure(let members) = entry.value,
            case .unsigned(let index)? = members.first(where: { $0.tag == .context(0xFE) })?.value
        else { return nil }
        return UInt8(exactly: index)
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        guard let schema = served.first(where: { $0.id == attribute }) else { throw StatusIB(.unsupportedAttribute) }
        switch write {
        case .replace(.array(let written)) where schema.isFabricScoped:
            // A fabric-scoped list: the accessing fabric's entries are replaced, the others' kept.
            guard case .array(let current)? = values[attribute] else { throw StatusIB(.invalidDataType) }
            let fabric = context.subject.fabricIndex
            try set(attribute, .array(current.filter { Self.fabric(of: $0) != fabric } + written))
        case .replace(let value):
            try writeChecks[attribute]?(self, value)
            try set(attribute, value)
        case .append(let entry):
            guard case .array(var entries)? = values[attribute], schema.type.isList else {
                throw StatusIB(.invalidDataType)
            }
            entries.append(TLVElement(entry))
            try set(attribute, .array(entries))
        }
    }

    override package func setLocally(_ attribute: AttributeID, _ value: TLVValue) throws(StatusIB) {
        try set(attribute, value)
    }

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        if let behaviour = behaviours[command] { return try behaviour(self, fields, context) }
        guard answersEveryCommand else { throw StatusIB(.unsupportedCommand) }
        guard let request = schema.command(command), case .command(let responseID) = request.response,
            let response = schema.responses.first(where: { $0.id == responseID })
        else { return nil }
        return CommandResponse(
            command: responseID,
            fields: ClusterValueCheck.zero(.structure(StructSchema(response.name, response.fields))))
    }
}

extension ClusterValueCheck.Failure {
    var isConstraint: Bool {
        if case .constraint = self { true } else { false }
    }
}
