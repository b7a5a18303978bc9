import MatterClusters
package import MatterCore
package import MatterInteraction
package import MatterTLV

/// Groups 0x0004 (rev 4) with group names (GN): adds this endpoint to groups of the accessing fabric
/// in the data model's shared ``GroupTable``. AddGroupIfIdentifying needs the endpoint's Identify
/// server to be identifying (otherwise it succeeds without effect). RemoveGroup and RemoveAllGroups
/// also remove the group's scenes from the endpoint's Scenes Management server.
package final class GroupsServer: ClusterServer {
    /// A Groups server. Responses carry SUCCESS or the IM status of the failure (CONSTRAINT_ERROR,
    /// NOT_FOUND, UNSUPPORTED_ACCESS without a group key, RESOURCE_EXHAUSTED) in their Status field.
    package init() {
        super.init(id: .groups, revision: ClusterSchema.groups.revision, featureMap: 0x01)
    }

    /// NameSupport: bit 7, names supported.
    package static let nameSupport: UInt8 = 0x80

    override package var attributes: [AttributeInfo] { Self.attributeInfos(.groups, [.Groups.nameSupport]) }

    override package var acceptedCommands: [CommandInfo] {
        Self.commandInfos(
            .groups,
            [
                .Groups.addGroup, .Groups.viewGroup, .Groups.getGroupMembership, .Groups.removeGroup,
                .Groups.removeAllGroups, .Groups.addGroupIfIdentifying,
            ])
    }

    override package var generatedCommands: [CommandID] {
        [
            .Groups.addGroupResponse, .Groups.viewGroupResponse, .Groups.getGroupMembershipResponse,
            .Groups.removeGroupResponse,
        ]
    }

    override package func read(_ attribute: AttributeID, context: InteractionContext) throws(StatusIB) -> TLVValue {
        guard attribute == .Groups.nameSupport else { throw StatusIB(.unsupportedAttribute) }
        return .unsigned(UInt64(Self.nameSupport))
    }

    override package func invoke(_ command: CommandID, fields: CommandFields, context: InteractionContext)
        throws(StatusIB) -> CommandResponse?
    {
        guard let table = dataModel?.groupTable else { throw StatusIB(.failure) }
        let fabric = context.subject.fabricIndex
        switch command {
        case .Groups.addGroup:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let name = try fields.string(1)
            let status = Self.status { () throws(StatusIB) in
                try table.add(fabric: fabric, group: group, name: name, endpoint: endpointID)
            }
            return response(.Groups.addGroupResponse, status: status, group: group)
        case .Groups.viewGroup:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            guard group.rawValue != 0 else {
                return response(.Groups.viewGroupResponse, status: .constraintError, group: group, name: "")
            }
            guard let entry = table.entry(fabric: fabric, group: group), entry.endpoints.contains(endpointID) else {
                return response(.Groups.viewGroupResponse, status: .notFound, group: group, name: "")
            }
            return response(.Groups.viewGroupResponse, status: .success, group: group, name: entry.name)
        case .Groups.getGroupMembership:
            let requested = try fields.unsignedList(0, UInt16.self).map(GroupID.init)
            let member = table.groups(fabric: fabric, endpoint: endpointID)
            let listed = requested.isEmpty ? member : member.filter { requested.contains($0) }
            let used = table.entries(fabric: fabric).count
            let capacity = min(max(table.maxGroupsPerFabric - used, 0), 0xFE)
            return CommandResponse(
                command: .Groups.getGroupMembershipResponse,
                fields: .structure([
                    TLVElement(tag: .context(0), .unsigned(UInt64(capacity))),
                    TLVElement(tag: .context(1), .array(listed.map { TLVElement(.unsigned(UInt64($0.rawValue))) })),
                ]))
        case .Groups.removeGroup:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let status = Self.status { () throws(StatusIB) in
                try table.remove(fabric: fabric, group: group, endpoint: endpointID)
            }
            if status == .success { scenes?.groupRemoved(group, fabric: fabric) }
            return response(.Groups.removeGroupResponse, status: status, group: group)
        case .Groups.removeAllGroups:
            let member = table.groups(fabric: fabric, endpoint: endpointID)
            table.removeAll(fabric: fabric, endpoint: endpointID)
            for group in member { scenes?.groupRemoved(group, fabric: fabric) }
            return nil
        case .Groups.addGroupIfIdentifying:
            let group = GroupID(try fields.unsigned(0, UInt16.self))
            let name = try fields.string(1)
            guard sibling(IdentifyServer.self)?.isIdentifying == true else { return nil }
            try table.add(fabric: fabric, group: group, name: name, endpoint: endpointID)
            return nil
        default:
            throw StatusIB(.unsupportedCommand)
        }
    }

    /// The endpoint's Scenes Management server: a removed group takes its scenes along (spec 1.3.7.4).
    private var scenes: ScenesManagementServer? { sibling(ScenesManagementServer.self) }

    private static func status(_ body: () throws(StatusIB) -> Void) -> IMStatus {
        do throws(StatusIB) {
            try body()
            return .success
        } catch {
            return error.status
        }
    }

    private func response(_ command: CommandID, status: IMStatus, group: GroupID, name: String? = nil)
        -> CommandResponse
    {
        var members = [
            TLVElement(tag: .context(0), .unsigned(UInt64(status.rawValue))),
            TLVElement(tag: .context(1), .unsigned(UInt64(group.rawValue))),
        ]
        if let name { members.append(TLVElement(tag: .context(2), .utf8(name))) }
        return CommandResponse(command: command, fields: .structure(members))
    }
}
