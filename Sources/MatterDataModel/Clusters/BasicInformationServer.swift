import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Basic Information 0x0028 (rev 5) on endpoint 0: the node's identity from a ``Configuration``;
/// NodeLabel (Manage), Location (Administer) and LocalConfigDisabled (Manage) writable and persisted;
/// ConfigurationVersion (rev 5, Matter 1.5) starts at 1, is persisted, and goes up by one whenever the
/// data model's composition changes after start (an endpoint or a cluster server added or removed).
/// Records StartUp when the data model starts and ShutDown when it shuts down; the device records
/// Leave with ``recordLeave(fabricIndex:)``.
package final class BasicInformationServer: ClusterServer {
    /// The values the cluster reports.
    package struct Configuration: Hashable, Sendable {
        /// DataModelRevision: the data-model revision of the specification claimed (Matter 1.4.1: 18,
        /// Matter 1.5: 19, 1.6: 21, as matter.js advertises them with its SpecificationVersion; Apple
        /// Home checks that the two agree).
        package var dataModelRevision: UInt16 = 19
        package var vendorName: String = "matter-emu"
        /// Must equal the DAC's and the certification declaration's vendor ID.
        package var vendorID: VendorID = .testVendor1
        package var productName: String
        /// Must be in the certification declaration and equal the DAC's product ID.
        package var productID: ProductID
        /// NodeLabel until a controller writes one (a written label is persisted and wins).
        package var nodeLabel: String = ""
        /// ISO 3166 country code, two characters (`XX` = unknown).
        package var location: String = "XX"
        package var hardwareVersion: UInt16 = 1
        package var hardwareVersionString: String = "1.0"
        package var softwareVersion: UInt32 = 1
        package var softwareVersionString: String = "1.0"
        /// ManufacturingDate (`YYYYMMDD`, optional attribute).
        package var manufacturingDate: String?
        package var partNumber: String?
        package var productURL: String?
        package var productLabel: String?
        package var serialNumber: String?
        /// UniqueID: stable, not derived from the serial number. Nil: generated at first start and
        /// persisted.
        package var uniqueID: String?
        /// CapabilityMinima.CaseSessionsPerFabric (≥ 3).
        package var caseSessionsPerFabric: UInt16 = 3
        /// CapabilityMinima.SubscriptionsPerFabric (≥ 3).
        package var subscriptionsPerFabric: UInt16 = 3
        /// SpecificationVersion, `0xMMmmpp00` (1.5.0).
        package var specificationVersion: UInt32 = 0x0105_0000
        /// MaxPathsPerInvoke (match the interaction server's `maxPathsPerInvoke`).
        package var maxPathsPerInvoke: UInt16 = 1

        package init(productName: String, productID: ProductID) {
            self.productName = productName
            self.productID = productID
        }
    }

    static let uniqueIDKey = "dm/unique-id"

    /// The configured values.
    package let configuration: Configuration
    /// NodeLabel (≤ 32 bytes).
    package private(set) var nodeLabel: String

    /// NodeLabel's maximum length in bytes of UTF-8 (spec 11.1.5: `string max 32`).
    package static let nodeLabelMaxBytes = 32

    /// Why `label` cannot be a NodeLabel, nil when it can: over 32 bytes, or holding a control or an
    /// invisible format character (``NameCharacters``). Every way a label comes in checks this: a
    /// controller's write (CONSTRAINT_ERROR), the control plane, `--name`, a fleet's names.
    package static func nodeLabelProblem(_ label: String) -> String? {
        let bytes = label.utf8.count
        if bytes > nodeLabelMaxBytes {
            return "is \(bytes) bytes of UTF-8; a NodeLabel holds at most \(nodeLabelMaxBytes)"
        }
        return NameCharacters.problem(in: label)
    }
    /// Location (2 characters).
    package private(set) var location: String
    /// LocalConfigDisabled.
    package private(set) var localConfigDisabled = false
    /// UniqueID (configured or generated).
    package private(set) var uniqueID: String
    /// ConfigurationVersion (≥ 1).
    package private(set) var configurationVersion: UInt32 = 1

    package init(configuration: Configuration) {
        self.configuration = configuration
        self.nodeLabel = configuration.nodeLabel
        self.location = configuration.location
        self.uniqueID = configuration.uniqueID ?? ""
        super.init(id: .basicInformation, revision: ClusterSchema.basicInformation.revision)
    }

    override package var attributes: [AttributeInfo] {
        typealias A = AttributeID.BasicInformation
        var ids: [AttributeID] = [
            A.dataModelRevision, A.vendorName, A.vendorID, A.productName, A.productID, A.nodeLabel, A.location,
            A.hardwareVersion, A.hardwareVersionString, A.softwareVersion, A.softwareVersionString,
        ]
        if configuration.manufacturingDate != nil { ids.append(A.manufacturingDate) }
        if configuration.partNumber != nil { ids.append(A.partNumber) }
        if configuration.productURL != nil { ids.append(A.productURL) }
        if configuration.productLabel != nil { ids.append(A.productLabel) }
        if configuration.serialNumber != nil { ids.append(A.serialNumber) }
        ids += [
            A.localConfigDisabled, A.uniqueID, A.capabilityMinima, A.specificationVersion, A.maxPathsPerInvoke,
            A.configurationVersion,
        ]
        return Self.attributeInfos(.basicInformation, ids)
    }

    /// StartUp, ShutDown and Leave; ReachableChanged (optional) belongs to bridged devices.
    override package var events: [EventInfo] {
        typealias E = EventID.BasicInformation
        let emitted: Set<EventID> = [E.startUp, E.shutDown, E.leave]
        return ClusterSchema.basicInformation.events.filter { emitted.contains($0.id) }.map(EventInfo.init)
    }

    override package func start() {
        // A label stored before the rule held is not served (the configured one stands instead).
        if case .utf8(let label)? = loadPersisted(.BasicInformation.nodeLabel), Self.nodeLabelProblem(label) == nil {
            nodeLabel = label
        }
        if case .utf8(let code)? = loadPersisted(.BasicInformation.location) { location = code }
        if case .bool(let flag)? = loadPersisted(.BasicInformation.localConfigDisabled) { localConfigDisabled = flag }
        if case .unsigned(let raw)? = loadPersisted(.BasicInformation.configurationVersion),
            let value = UInt32(exactly: raw), value >= 1
        {
            configurationVersion = value
        }
        if configuration.uniqueID == nil {
            if case .utf8(let stored)? = dataModel?.loadValue(Self.uniqueIDKey), !stored.isEmpty {
                uniqueID = stored
            } else {
                var random = SystemRandomNumberGenerator()
                uniqueID = (0..<16).map { _ in hexByte(UInt8.random(in: 0...255, using: &random)) }.joined()
                dataModel?.saveValue(Self.uniqueIDKey, .utf8(uniqueID))
            }
        }
        recordEvent(
            .BasicInformation.startUp, priority: .critical,
            fields: .structure([TLVElement(tag: .context(0), .unsigned(UInt64(configuration.softwareVersion)))]))
    }

    override package func stop() {
        recordEvent(.BasicInformation.shutDown, priority: .critical)
    }

    /// Records the Leave event for a fabric that was removed.
    package func recordLeave(fabricIndex: UInt8) {
        recordEvent(
            .BasicInformation.leave, priority: .info,
            fields: .structure([TLVElement(tag: .context(0), .unsigned(UInt64(fabricIndex)))]))
    }

    /// The node's composition changed (not by a software update): ConfigurationVersion goes up by one.
    package func configurationChanged() {
        configurationVersion = configurationVersion == .max ? 1 : configurationVersion + 1
        persist(.BasicInformation.configurationVersion, .unsigned(UInt64(configurationVersion)))
        attributeChanged(.BasicInformation.configurationVersion)
    }

    /// Sets Location (SetRegulatoryConfig's CountryCode): exactly two characters, else CONSTRAINT_ERROR.
    package func setLocation(_ code: String) throws(StatusIB) {
        guard code.utf8.count == 2 else { throw StatusIB(.constraintError) }
        guard code != location else { return }
        location = code
        persist(.BasicInformation.location, .utf8(code))
        attributeChanged(.BasicInformation.location)
    }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        typealias A = AttributeID.BasicInformation
        let c = configuration
        switch attribute {
        case A.dataModelRevision: return .unsigned(UInt64(c.dataModelRevision))
        case A.vendorName: return .utf8(c.vendorName)
        case A.vendorID: return .unsigned(UInt64(c.vendorID.rawValue))
        case A.productName: return .utf8(c.productName)
        case A.productID: return .unsigned(UInt64(c.productID.rawValue))
        case A.nodeLabel: return .utf8(nodeLabel)
        case A.location: return .utf8(location)
        case A.hardwareVersion: return .unsigned(UInt64(c.hardwareVersion))
        case A.hardwareVersionString: return .utf8(c.hardwareVersionString)
        case A.softwareVersion: return .unsigned(UInt64(c.softwareVersion))
        case A.softwareVersionString: return .utf8(c.softwareVersionString)
        case A.manufacturingDate: return try optional(c.manufacturingDate)
        case A.partNumber: return try optional(c.partNumber)
        case A.productURL: return try optional(c.productURL)
        case A.productLabel: return try optional(c.productLabel)
        case A.serialNumber: return try optional(c.serialNumber)
        case A.localConfigDisabled: return .bool(localConfigDisabled)
        case A.uniqueID: return .utf8(uniqueID)
        case A.capabilityMinima:
            return .structure([
                TLVElement(tag: .context(0), .unsigned(UInt64(c.caseSessionsPerFabric))),
                TLVElement(tag: .context(1), .unsigned(UInt64(c.subscriptionsPerFabric))),
            ])
        case A.specificationVersion: return .unsigned(UInt64(c.specificationVersion))
        case A.maxPathsPerInvoke: return .unsigned(UInt64(c.maxPathsPerInvoke))
        case A.configurationVersion: return .unsigned(UInt64(configurationVersion))
        default: throw StatusIB(.unsupportedAttribute)
        }
    }

    private func optional(_ text: String?) throws(StatusIB) -> TLVValue {
        guard let text else { throw StatusIB(.unsupportedAttribute) }
        return .utf8(text)
    }

    override package func write(_ attribute: AttributeID, _ write: AttributeWrite, context: InteractionContext)
        throws(StatusIB)
    {
        let value = WriteValue(write)
        switch attribute {
        case .BasicInformation.nodeLabel:
            let label = try value.string(maxLength: Self.nodeLabelMaxBytes)
            guard Self.nodeLabelProblem(label) == nil else { throw StatusIB(.constraintError) }
            guard label != nodeLabel else { return }
            nodeLabel = label
            persist(attribute, .utf8(label))
            attributeChanged(attribute)
        case .BasicInformation.location:
            try setLocation(try value.string())
        case .BasicInformation.localConfigDisabled:
            let flag = try value.bool()
            guard flag != localConfigDisabled else { return }
            localConfigDisabled = flag
            persist(attribute, .bool(flag))
            attributeChanged(attribute)
        default:
            throw StatusIB(.unsupportedWrite)
        }
    }

    override package func changeDescription(of attribute: AttributeID, value: TLVValue) -> String? {
        switch attribute {
        case .BasicInformation.nodeLabel: "node-label: \"\(nodeLabel)\""
        case .BasicInformation.location: "location: \(location)"
        default: super.changeDescription(of: attribute, value: value)
        }
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 2 ? digits : "0" + digits
}
