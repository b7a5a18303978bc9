import MatterTLV
package import MatterTransport

/// The session-parameter structure of PBKDFParamRequest/Response and Sigma1/Sigma2 (spec 4.13.1.1):
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | SESSION_IDLE_INTERVAL (ms) | uint32 |
/// | 2 | SESSION_ACTIVE_INTERVAL (ms) | uint32 |
/// | 3 | SESSION_ACTIVE_THRESHOLD (ms) | uint16 |
/// | 4 | DataModelRevision | uint16 |
/// | 5 | InteractionModelRevision | uint16 |
/// | 6 | SpecificationVersion | uint32 |
/// | 7 | MaxPathsPerInvoke | uint16 |
///
/// All optional; written in ascending order, as the SDK's sequential parser needs.
package struct SessionParameters: Equatable, Sendable {
    package var idleInterval: UInt32?
    package var activeInterval: UInt32?
    package var activeThreshold: UInt16?
    package var dataModelRevision: UInt16?
    package var interactionModelRevision: UInt16?
    package var specificationVersion: UInt32?
    package var maxPathsPerInvoke: UInt16?

    package init(
        idleInterval: UInt32? = nil, activeInterval: UInt32? = nil, activeThreshold: UInt16? = nil,
        dataModelRevision: UInt16? = nil, interactionModelRevision: UInt16? = nil,
        specificationVersion: UInt32? = nil, maxPathsPerInvoke: UInt16? = nil
    ) {
        self.idleInterval = idleInterval
        self.activeInterval = activeInterval
        self.activeThreshold = activeThreshold
        self.dataModelRevision = dataModelRevision
        self.interactionModelRevision = interactionModelRevision
        self.specificationVersion = specificationVersion
        self.maxPathsPerInvoke = maxPathsPerInvoke
    }

    /// What this implementation advertises: its MRP intervals, the revisions (SpecificationVersion 1.5
    /// and DataModelRevision 19, as BasicInformation reports them), the commands one InvokeRequest may carry.
    package static func local(_ mrp: MRPParameters, maxPathsPerInvoke: UInt16 = 1) -> SessionParameters {
        SessionParameters(
            idleInterval: mrp.idleInterval, activeInterval: mrp.activeInterval,
            activeThreshold: mrp.activeThreshold, dataModelRevision: 19, interactionModelRevision: 12,
            specificationVersion: 0x0105_0000, maxPathsPerInvoke: maxPathsPerInvoke)
    }

    /// The MRP intervals, with the SDK defaults for absent fields.
    package var mrp: MRPParameters {
        MRPParameters(
            idleInterval: idleInterval ?? MRPParameters.default.idleInterval,
            activeInterval: activeInterval ?? MRPParameters.default.activeInterval,
            activeThreshold: activeThreshold ?? MRPParameters.default.activeThreshold)
    }

    func encode(to writer: inout TLVWriter, tag: TLVTag) {
        writer.putStructure(tag: tag) { w in
            if let idleInterval { w.put(idleInterval, tag: .context(1)) }
            if let activeInterval { w.put(activeInterval, tag: .context(2)) }
            if let activeThreshold { w.put(activeThreshold, tag: .context(3)) }
            if let dataModelRevision { w.put(dataModelRevision, tag: .context(4)) }
            if let interactionModelRevision { w.put(interactionModelRevision, tag: .context(5)) }
            if let specificationVersion { w.put(specificationVersion, tag: .context(6)) }
            if let maxPathsPerInvoke { w.put(maxPathsPerInvoke, tag: .context(7)) }
        }
    }

    init(element: TLVElement) throws(TLVError) {
        self.init(
            idleInterval: try element.decodeMemberIfPresent(.context(1), as: UInt32.self),
            activeInterval: try element.decodeMemberIfPresent(.context(2), as: UInt32.self),
            activeThreshold: try element.decodeMemberIfPresent(.context(3), as: UInt16.self),
            dataModelRevision: try element.decodeMemberIfPresent(.context(4), as: UInt16.self),
            interactionModelRevision: try element.decodeMemberIfPresent(.context(5), as: UInt16.self),
            specificationVersion: try element.decodeMemberIfPresent(.context(6), as: UInt32.self),
            maxPathsPerInvoke: try element.decodeMemberIfPresent(.context(7), as: UInt16.self))
    }
}
