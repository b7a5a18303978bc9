package import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// One entry of a node's access control list: who (auth mode and subjects) may do what (privilege)
/// where (targets), on one fabric.
///
/// The wire form is the AccessControl cluster's AccessControlEntryStruct:
///
/// | tag | field | type |
/// |---|---|---|
/// | 1 | Privilege | enum8 (1 View, 2 ProxyView, 3 Operate, 4 Manage, 5 Administer) |
/// | 2 | AuthMode | enum8 (1 PASE, 2 CASE, 3 Group) |
/// | 3 | Subjects | list\<uint64\>, nullable (null = any subject of the auth mode) |
/// | 4 | Targets | list\<Target\>, nullable (null = the whole node) |
/// | 0xFE | FabricIndex | uint8 |
///
/// Target {0 Cluster uint32 X, 1 Endpoint uint16 X, 2 DeviceType uint32 X}. Fields 1–4 are
/// fabric-sensitive.
package struct AccessControlEntry: Hashable, Sendable {
    /// Where an entry applies: every non-nil field must match.
    package struct Target: Hashable, Sendable {
        package var cluster: ClusterID?
        package var endpoint: EndpointID?
        package var deviceType: DeviceTypeID?

        package init(cluster: ClusterID? = nil, endpoint: EndpointID? = nil, deviceType: DeviceTypeID? = nil) {
            self.cluster = cluster
            self.endpoint = endpoint
            self.deviceType = deviceType
        }

        /// True when the request's endpoint and cluster fall under this target.
        package func matches(_ request: AccessRequest) -> Bool {
            if let cluster, cluster != request.cluster { return false }
            if let endpoint, endpoint != request.endpoint { return false }
            if let deviceType, !request.deviceTypes.contains(deviceType) { return false }
            return true
        }
    }

    /// The fabric the entry belongs to.
    package var fabricIndex: UInt8
    /// The privilege granted.
    package var privilege: Privilege
    /// How the subject must have authenticated.
    package var authMode: SubjectDescriptor.AuthMode
    /// CASE: node IDs or CAT subjects; group: group IDs. Empty: any subject of the auth mode.
    package var subjects: [UInt64]
    /// Empty: the whole node.
    package var targets: [Target]

    package init(
        fabricIndex: UInt8, privilege: Privilege, authMode: SubjectDescriptor.AuthMode, subjects: [UInt64] = [],
        targets: [Target] = []
    ) {
        self.fabricIndex = fabricIndex
        self.privilege = privilege
        self.authMode = authMode
        self.subjects = subjects
        self.targets = targets
    }

    // MARK: - Evaluation (spec 6.6.6.2)

    /// True when this entry grants `request` to `subject`: same fabric and auth mode, a privilege that
    /// includes the requested one, a matching subject and a matching target.
    package func grants(_ subject: SubjectDescriptor, _ request: AccessRequest) -> Bool {
        guard subject.fabricIndex != 0, fabricIndex == subject.fabricIndex, authMode == subject.authMode,
            Self.privilege(privilege, includes: request.privilege)
        else { return false }
        if !subjects.isEmpty, !subjects.contains(where: { Self.subject($0, matches: subject) }) { return false }
        if !targets.isEmpty, !targets.contains(where: { $0.matches(request) }) { return false }
        return true
    }

    /// True when an entry granting `granted` allows an operation needing `requested`: Administer ⊃
    /// Manage ⊃ Operate ⊃ View, ProxyView ⊃ View, and only Administer (or ProxyView) includes
    /// ProxyView.
    package static func privilege(_ granted: Privilege, includes requested: Privilege) -> Bool {
        switch granted {
        case .view: requested == .view
        case .proxyView: requested == .proxyView || requested == .view
        case .operate: requested == .operate || requested == .view
        case .manage: requested == .manage || requested == .operate || requested == .view
        case .administer: true
        }
    }

    /// True when the entry subject `entrySubject` designates `subject`: the same node (or group) ID,
    /// or, for CASE, a CAT subject whose identifier is one of the subject's CATs with a version at
    /// least the entry's.
    package static func subject(_ entrySubject: UInt64, matches subject: SubjectDescriptor) -> Bool {
        if entrySubject == subject.subject { return true }
        guard subject.authMode == .case, let (identifier, version) = catComponents(entrySubject) else { return false }
        return subject.cats.contains { cat in
            UInt16(truncatingIfNeeded: cat >> 16) == identifier && UInt16(truncatingIfNeeded: cat) >= version
        }
    }

    // MARK: - CASE Authenticated Tags

    /// The upper 32 bits of a CAT subject.
    package static let catSubjectPrefix: UInt64 = 0xFFFF_FFFD_0000_0000

    /// The subject for a CASE Authenticated Tag (`0xFFFFFFFD_IIII_VVVV`).
    package static func catSubject(identifier: UInt16, version: UInt16) -> UInt64 {
        catSubjectPrefix | UInt64(identifier) << 16 | UInt64(version)
    }

    /// Identifier and version of a CAT subject; nil for other subjects.
    package static func catComponents(_ subject: UInt64) -> (identifier: UInt16, version: UInt16)? {
        guard subject & 0xFFFF_FFFF_0000_0000 == catSubjectPrefix else { return nil }
        return (UInt16(truncatingIfNeeded: subject >> 16), UInt16(truncatingIfNeeded: subject))
    }

    // MARK: - Validation (AccessControl cluster writes)

    /// Checks the rules a written entry must meet; throws CONSTRAINT_ERROR otherwise. PASE entries
    /// cannot be written; group entries cannot grant Administer and name group IDs 1...0xFFFF; CASE
    /// subjects are operational node IDs or CAT subjects with a version other than 0; a target names
    /// something and never both an endpoint and a device type.
    package func validate() throws(StatusIB) {
        switch authMode {
        case .pase:
            throw StatusIB(.constraintError)
        case .group:
            if privilege == .administer { throw StatusIB(.constraintError) }
            for subject in subjects where subject == 0 || subject > 0xFFFF { throw StatusIB(.constraintError) }
        case .case:
            for subject in subjects {
                if let (_, version) = Self.catComponents(subject) {
                    if version == 0 { throw StatusIB(.constraintError) }
                } else if !NodeID(subject).isOperational {
                    throw StatusIB(.constraintError)
                }
            }
        }
        for target in targets {
            if target.cluster == nil, target.endpoint == nil, target.deviceType == nil {
                throw StatusIB(.constraintError)
            }
            if target.endpoint != nil, target.deviceType != nil { throw StatusIB(.constraintError) }
        }
    }

    // MARK: - TLV

    /// Decodes an AccessControlEntryStruct. A value that is not such a structure, or a field of the
    /// wrong type → INVALID_DATA_TYPE; an unknown privilege or auth mode → CONSTRAINT_ERROR. Empty
    /// subject and target lists become "any".
    package init(tlv element: TLVElement) throws(StatusIB) {
        guard case .structure = element.value else { throw StatusIB(.invalidDataType) }
        let fields = WriteFields(element)
        guard let privilege = Privilege(rawValue: try fields.unsigned(1, UInt8.self)) else {
            throw StatusIB(.constraintError)
        }
        guard let authMode = SubjectDescriptor.AuthMode(rawValue: try fields.unsigned(2, UInt8.self)) else {
            throw StatusIB(.constraintError)
        }
        self.privilege = privilege
        self.authMode = authMode
        self.fabricIndex = try fields.optionalUnsigned(0xFE, UInt8.self) ?? 0
        var subjects: [UInt64] = []
        for member in try fields.nullableArray(3) ?? [] {
            subjects.append(try WriteValue(member.value).unsigned(UInt64.self))
        }
        self.subjects = subjects
        var targets: [Target] = []
        for member in try fields.nullableArray(4) ?? [] {
            guard case .structure = member.value else { throw StatusIB(.invalidDataType) }
            let target = WriteFields(member)
            targets.append(
                Target(
                    cluster: try target.nullableUnsigned(0, UInt32.self).map(ClusterID.init),
                    endpoint: try target.nullableUnsigned(1, UInt16.self).map(EndpointID.init),
                    deviceType: try target.nullableUnsigned(2, UInt32.self).map(DeviceTypeID.init)))
        }
        self.targets = targets
    }

    /// The AccessControlEntryStruct; without the fabric-sensitive fields 1–4 when
    /// `includeSensitive` is false (another fabric's entry in an unfiltered read).
    package func tlvValue(includeSensitive: Bool = true) -> TLVValue {
        var members: [TLVElement] = []
        if includeSensitive {
            members.append(TLVElement(tag: .context(1), .unsigned(UInt64(privilege.rawValue))))
            members.append(TLVElement(tag: .context(2), .unsigned(UInt64(authMode.rawValue))))
            members.append(
                TLVElement(
                    tag: .context(3),
                    subjects.isEmpty ? .null : .array(subjects.map { TLVElement(.unsigned($0)) })))
            members.append(
                TLVElement(
                    tag: .context(4),
                    targets.isEmpty
                        ? .null
                        : .array(
                            targets.map { target in
                                TLVElement(
                                    .structure([
                                        TLVElement(
                                            tag: .context(0),
                                            target.cluster.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                                        TLVElement(
                                            tag: .context(1),
                                            target.endpoint.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                                        TLVElement(
                                            tag: .context(2),
                                            target.deviceType.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                                    ]))
                            })))
        }
        members.append(TLVElement(tag: .context(0xFE), .unsigned(UInt64(fabricIndex))))
        return .structure(members)
    }
}

/// Struct members of a written value, decoded with write statuses (INVALID_DATA_TYPE for a missing or
/// mistyped field).
struct WriteFields {
    let element: TLVElement

    init(_ element: TLVElement) { self.element = element }

    private func required(_ tag: UInt8) throws(StatusIB) -> TLVValue {
        guard let member = element[context: tag] else { throw StatusIB(.invalidDataType) }
        return member.value
    }

    func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type) throws(StatusIB) -> T {
        try WriteValue(try required(tag)).unsigned(type)
    }

    func optionalUnsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type) throws(StatusIB) -> T? {
        guard let member = element[context: tag] else { return nil }
        return try WriteValue(member.value).unsigned(type)
    }

    func nullableUnsigned<T: FixedWidthInteger & UnsignedInteger>(_ tag: UInt8, _ type: T.Type) throws(StatusIB) -> T? {
        guard let member = element[context: tag] else { return nil }
        return try WriteValue(member.value).nullableUnsigned(type)
    }

    func nullableArray(_ tag: UInt8) throws(StatusIB) -> [TLVElement]? {
        guard let member = element[context: tag], member.value != .null else { return nil }
        return try WriteValue(member.value).array()
    }
}
