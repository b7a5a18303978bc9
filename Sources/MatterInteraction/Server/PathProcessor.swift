import MatterClusters
import MatterCore
import MatterTLV

/// The per-path rules of interaction-model.md §5 over a ``DataModel``: wildcard expansion, existence,
/// access, timing, data versions, then the operation. Pure logic, no transport.
struct PathProcessor {
    let dataModel: any DataModel

    /// The global list attributes the engine serves when the data model does not.
    static let synthesizedGlobals: [AttributeID] = [.generatedCommandList, .acceptedCommandList, .attributeList]

    // MARK: - Metadata

    func endpointExists(_ endpoint: EndpointID) -> Bool { dataModel.endpoints.contains(endpoint) }

    func clusterExists(_ endpoint: EndpointID, _ cluster: ClusterID) -> Bool {
        dataModel.clusters(endpoint: endpoint).contains(cluster)
    }

    /// The data model's attributes plus the synthesized global lists it does not list itself.
    func attributes(_ endpoint: EndpointID, _ cluster: ClusterID) -> [AttributeInfo] {
        var infos = dataModel.attributes(endpoint: endpoint, cluster: cluster)
        for id in Self.synthesizedGlobals where !infos.contains(where: { $0.id == id }) {
            infos.append(AttributeInfo(id, list: true))
        }
        return infos
    }

    func attribute(_ path: ConcreteAttributePath) -> AttributeInfo? {
        guard endpointExists(path.endpoint), clusterExists(path.endpoint, path.cluster) else { return nil }
        return attributes(path.endpoint, path.cluster).first { $0.id == path.attribute }
    }

    func allowed(_ subject: SubjectDescriptor, _ endpoint: EndpointID, _ cluster: ClusterID, _ privilege: Privilege)
        -> Bool
    {
        dataModel.checkAccess(subject, endpoint: endpoint, cluster: cluster, privilege: privilege)
    }

    /// Logs a refused concrete request (wildcard expansions skip such paths silently, as the spec says).
    func logDenied(_ subject: SubjectDescriptor, _ operation: String, _ path: String, _ privilege: Privilege) {
        Self.log.notice(
            "access denied: \(subject) may not \(operation) \(path) (needs \(privilege)): UNSUPPORTED_ACCESS")
    }

    static let log = Logger(label: "access")

    // MARK: - Reads

    /// True when every request path may be expanded; otherwise the whole read or subscribe is answered
    /// with StatusResponse INVALID_ACTION (list index in a read path, cluster wildcard with a
    /// non-global attribute or with a specific event).
    func isValid(readPaths: [AttributePathIB], eventPaths: [EventPathIB]) -> Bool {
        for path in readPaths {
            if path.listIndex != nil { return false }
            if path.cluster == nil, let attribute = path.attribute, !attribute.isGlobal { return false }
        }
        return !eventPaths.contains { $0.cluster == nil && $0.event != nil }
    }

    /// The concrete attributes a path names that exist and the subject may read, in report order;
    /// for a concrete path that fails, its status instead.
    func expand(_ path: AttributePathIB, subject: SubjectDescriptor) -> [Expansion] {
        if let concrete = path.concrete {
            if let failure = readFailure(concrete, subject: subject) { return [.status(concrete, failure)] }
            return [.attribute(concrete)]
        }
        var out: [Expansion] = []
        let endpoints = path.endpoint.map { [$0] } ?? dataModel.endpoints
        for endpoint in endpoints where endpointExists(endpoint) {
            let clusters = path.cluster.map { [$0] } ?? dataModel.clusters(endpoint: endpoint)
            for cluster in clusters where clusterExists(endpoint, cluster) {
                for info in attributes(endpoint, cluster) where path.attribute == nil || path.attribute == info.id {
                    guard allowed(subject, endpoint, cluster, info.readPrivilege) else { continue }
                    out.append(
                        .attribute(ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: info.id)))
                }
            }
        }
        return out
    }

    enum Expansion: Hashable {
        case attribute(ConcreteAttributePath)
        case status(ConcreteAttributePath, IMStatus)
    }

    /// Access first, then existence (core spec 1.4 §8.4.3.2).
    func readFailure(_ path: ConcreteAttributePath, subject: SubjectDescriptor) -> IMStatus? {
        let info = attribute(path)
        let privilege = info?.readPrivilege ?? .view
        guard allowed(subject, path.endpoint, path.cluster, privilege) else {
            logDenied(subject, "read", "\(path)", privilege)
            return .unsupportedAccess
        }
        guard endpointExists(path.endpoint) else { return .unsupportedEndpoint }
        guard clusterExists(path.endpoint, path.cluster) else { return .unsupportedCluster }
        guard info != nil else { return .unsupportedAttribute }
        return nil
    }

    /// Reads every path (in request order, each expanded), skipping clusters whose data version a
    /// filter names. A concrete path is reported once even if several request paths name it.
    func readReports(_ paths: [AttributePathIB], filters: [DataVersionFilterIB], context: InteractionContext)
        -> [AttributeReportIB]
    {
        var seen = Set<ConcreteAttributePath>()
        var reports: [AttributeReportIB] = []
        for path in paths {
            for item in expand(path, subject: context.subject) {
                switch item {
                case .status(let concrete, let status):
                    guard seen.insert(concrete).inserted else { continue }
                    reports.append(
                        .status(AttributeStatusIB(path: AttributePathIB(concrete), status: StatusIB(status))))
                case .attribute(let concrete):
                    guard seen.insert(concrete).inserted else { continue }
                    if isFiltered(concrete, filters) { continue }
                    if let report = read(concrete, context: context, concreteRequest: path.concrete != nil) {
                        reports.append(report)
                    }
                }
            }
        }
        return reports
    }

    func isFiltered(_ path: ConcreteAttributePath, _ filters: [DataVersionFilterIB]) -> Bool {
        filters.contains { filter in
            filter.path.endpoint == path.endpoint && filter.path.cluster == path.cluster
                && filter.dataVersion == dataModel.dataVersion(endpoint: path.endpoint, cluster: path.cluster)
        }
    }

    /// Reads one existing, accessible attribute. A failure of a path a wildcard produced is skipped when
    /// it means "not readable here" (UNSUPPORTED_READ/ACCESS), reported otherwise.
    func read(_ path: ConcreteAttributePath, context: InteractionContext, concreteRequest: Bool) -> AttributeReportIB? {
        let version = dataModel.dataVersion(endpoint: path.endpoint, cluster: path.cluster)
        do throws(StatusIB) {
            let value = try readValue(path, context: context)
            return .data(AttributeDataIB(dataVersion: version, path: AttributePathIB(path), data: value))
        } catch {
            if !concreteRequest, error.status == .unsupportedRead || error.status == .unsupportedAccess { return nil }
            return .status(AttributeStatusIB(path: AttributePathIB(path), status: error))
        }
    }

    func readValue(_ path: ConcreteAttributePath, context: InteractionContext) throws(StatusIB) -> TLVValue {
        let listed = dataModel.attributes(endpoint: path.endpoint, cluster: path.cluster).contains {
            $0.id == path.attribute
        }
        if !listed {
            switch path.attribute {
            case .attributeList:
                let ids = attributes(path.endpoint, path.cluster).map(\.id)
                return .array(ids.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
            case .acceptedCommandList:
                let ids = dataModel.acceptedCommands(endpoint: path.endpoint, cluster: path.cluster).map(\.id)
                return .array(ids.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
            case .generatedCommandList:
                let ids = dataModel.generatedCommands(endpoint: path.endpoint, cluster: path.cluster)
                return .array(ids.map { TLVElement(.unsigned(UInt64($0.rawValue))) })
            default:
                break
            }
        }
        return try dataModel.readAttribute(path, context: context)
    }

    // MARK: - Events

    /// Event reports for the request paths: records numbered `minimum` or later that match a path and
    /// that the subject may read, plus statuses for concrete paths that fail.
    /// `latest` is the highest event number the data model returned (reported or not), so a subscription
    /// knows where to continue.
    func eventReports(_ paths: [EventPathIB], minimum: UInt64, context: InteractionContext)
        -> (reports: [EventReportIB], latest: UInt64?)
    {
        guard !paths.isEmpty else { return ([], nil) }
        var latest: UInt64?
        var reports: [EventReportIB] = []
        var readable: [EventPathIB] = []
        for path in paths {
            if let concrete = path.concrete, let failure = eventFailure(concrete, subject: context.subject) {
                reports.append(.status(EventStatusIB(path: path, status: StatusIB(failure))))
            } else {
                readable.append(path)
            }
        }
        for record in dataModel.eventRecords(from: minimum) {
            latest = max(latest ?? record.number, record.number)
            guard readable.contains(where: { $0.matches(record.path) }),
                let info = dataModel.events(endpoint: record.path.endpoint, cluster: record.path.cluster)
                    .first(where: { $0.id == record.path.event }),
                allowed(context.subject, record.path.endpoint, record.path.cluster, info.readPrivilege)
            else { continue }
            if info.isFabricSensitive, let owner = record.fabricIndex, owner != context.subject.fabricIndex { continue }
            reports.append(
                .data(
                    EventDataIB(
                        path: EventPathIB(record.path), eventNumber: record.number,
                        priority: record.priority, timestamp: record.timestamp,
                        data: record.data)))
        }
        return (reports, latest)
    }

    func eventFailure(_ path: ConcreteEventPath, subject: SubjectDescriptor) -> IMStatus? {
        let info =
            endpointExists(path.endpoint) && clusterExists(path.endpoint, path.cluster)
            ? dataModel.events(endpoint: path.endpoint, cluster: path.cluster).first { $0.id == path.event } : nil
        let privilege = info?.readPrivilege ?? .view
        guard allowed(subject, path.endpoint, path.cluster, privilege) else {
            logDenied(subject, "read event", "\(path)", privilege)
            return .unsupportedAccess
        }
        guard endpointExists(path.endpoint) else { return .unsupportedEndpoint }
        guard clusterExists(path.endpoint, path.cluster) else { return .unsupportedCluster }
        guard info != nil else { return .unsupportedEvent }
        return nil
    }

    // MARK: - Writes

    /// Applies one AttributeDataIB of a unicast write; the path must be concrete (checked by the caller).
    /// Returns the status to report and whether a list was written.
    func write(_ item: AttributeDataIB, concrete path: ConcreteAttributePath, context: InteractionContext) -> StatusIB {
        let info = attribute(path)
        let subject = context.subject
        let privilege = info?.writePrivilege ?? .operate
        guard allowed(subject, path.endpoint, path.cluster, privilege) else {
            logDenied(subject, "write", "\(path)", privilege)
            return StatusIB(.unsupportedAccess)
        }
        guard endpointExists(path.endpoint) else { return StatusIB(.unsupportedEndpoint) }
        guard clusterExists(path.endpoint, path.cluster) else { return StatusIB(.unsupportedCluster) }
        guard let info else { return StatusIB(.unsupportedAttribute) }
        guard info.writePrivilege != nil else { return StatusIB(.unsupportedWrite) }
        if info.requiresTimedWrite, !context.isTimed { return StatusIB(.needsTimedInteraction) }
        if info.isFabricScoped, !subject.hasFabric { return StatusIB(.unsupportedAccess) }
        if let expected = item.dataVersion,
            expected != dataModel.dataVersion(endpoint: path.endpoint, cluster: path.cluster)
        {
            return StatusIB(.dataVersionMismatch)
        }
        let operation: AttributeWrite
        switch item.path.listIndex {
        case nil:
            var value = item.data
            if info.isFabricScoped, case .array(let entries) = value {
                value = .array(entries.map { Self.stampFabricIndex($0, subject.fabricIndex) })
            }
            operation = .replace(value)
        case .null:
            guard info.isList else { return StatusIB(.invalidAction) }
            let entry = TLVElement(item.data)
            operation = .append(
                info.isFabricScoped ? Self.stampFabricIndex(entry, subject.fabricIndex).value : item.data)
        case .index:
            // Replacing or deleting one entry by index is not part of Matter 1.4 writes.
            return StatusIB(.invalidAction)
        }
        do throws(StatusIB) {
            try dataModel.writeAttribute(path, operation, context: context)
            return .success
        } catch {
            return error
        }
    }

    /// A fabric-scoped struct entry with its FabricIndex (tag 0xFE) set to the accessing fabric.
    static func stampFabricIndex(_ entry: TLVElement, _ fabricIndex: UInt8) -> TLVElement {
        guard case .structure(var members) = entry.value else { return entry }
        members.removeAll { $0.tag == .context(0xFE) }
        members.append(TLVElement(tag: .context(0xFE), .unsigned(UInt64(fabricIndex))))
        return TLVElement(tag: entry.tag, .structure(members))
    }

    // MARK: - Invokes

    /// Runs one command of a unicast invoke; the path must be concrete (checked by the caller).
    func invoke(_ item: CommandDataIB, concrete path: ConcreteCommandPath, context: InteractionContext)
        -> InvokeResponseIB
    {
        let status = { (status: StatusIB) -> InvokeResponseIB in
            .status(CommandStatusIB(path: item.path, status: status, commandRef: item.commandRef))
        }
        let exists = endpointExists(path.endpoint) && clusterExists(path.endpoint, path.cluster)
        let info =
            exists
            ? dataModel.acceptedCommands(endpoint: path.endpoint, cluster: path.cluster).first { $0.id == path.command }
            : nil
        let privilege = info?.privilege ?? .operate
        guard allowed(context.subject, path.endpoint, path.cluster, privilege) else {
            logDenied(context.subject, "invoke", "\(path)", privilege)
            return status(StatusIB(.unsupportedAccess))
        }
        guard endpointExists(path.endpoint) else { return status(StatusIB(.unsupportedEndpoint)) }
        guard clusterExists(path.endpoint, path.cluster) else { return status(StatusIB(.unsupportedCluster)) }
        guard let info else { return status(StatusIB(.unsupportedCommand)) }
        if info.requiresTimedInvoke, !context.isTimed { return status(StatusIB(.needsTimedInteraction)) }
        if info.isFabricScoped, !context.subject.hasFabric { return status(StatusIB(.unsupportedAccess)) }
        guard case .structure = item.fields else { return status(StatusIB(.invalidCommand)) }
        do throws(StatusIB) {
            guard let response = try dataModel.invoke(path, fields: TLVElement(item.fields), context: context) else {
                return status(.success)
            }
            let responsePath = CommandPathIB(endpoint: path.endpoint, cluster: path.cluster, command: response.command)
            return .command(CommandDataIB(path: responsePath, fields: response.fields, commandRef: item.commandRef))
        } catch {
            return status(error)
        }
    }
}
