package import MatterClusters
package import MatterCore

/// What the engine must know about one attribute of a cluster instance to check a request before the
/// data model sees it.
public struct AttributeInfo: Hashable, Sendable {
    package var id: AttributeID
    /// Privilege needed to read.
    package var readPrivilege: Privilege
    /// Privilege needed to write; nil for read-only attributes (writes get UNSUPPORTED_WRITE).
    package var writePrivilege: Privilege?
    /// A list attribute: whole-list writes replace it, `ListIndex = null` appends an entry.
    package var isList: Bool
    /// A fabric-scoped list: writes need an accessing fabric, and the engine sets each written entry's
    /// FabricIndex (tag 0xFE) to it.
    package var isFabricScoped: Bool
    /// Writes must be timed.
    package var requiresTimedWrite: Bool

    package init(
        _ id: AttributeID, read: Privilege = .view, write: Privilege? = nil, list: Bool = false,
        fabricScoped: Bool = false, timed: Bool = false
    ) {
        self.id = id
        self.readPrivilege = read
        self.writePrivilege = write
        self.isList = list
        self.isFabricScoped = fabricScoped
        self.requiresTimedWrite = timed
    }

    /// The info an attribute's schema implies.
    package init(_ schema: AttributeSchema) {
        self.init(
            schema.id, read: schema.readPrivilege, write: schema.writePrivilege, list: schema.type.isList,
            fabricScoped: schema.isFabricScoped, timed: schema.requiresTimedWrite)
    }
}

/// What the engine must know about one accepted command of a cluster instance.
public struct CommandInfo: Hashable, Sendable {
    package var id: CommandID
    /// Privilege needed to invoke.
    package var privilege: Privilege
    /// Must be invoked in a timed interaction.
    package var requiresTimedInvoke: Bool
    /// Needs an accessing fabric.
    package var isFabricScoped: Bool

    package init(_ id: CommandID, privilege: Privilege = .operate, timed: Bool = false, fabricScoped: Bool = false) {
        self.id = id
        self.privilege = privilege
        self.requiresTimedInvoke = timed
        self.isFabricScoped = fabricScoped
    }

    /// The info a command's schema implies.
    package init(_ schema: CommandSchema) {
        self.init(
            schema.id, privilege: schema.privilege, timed: schema.requiresTimedInvoke,
            fabricScoped: schema.isFabricScoped)
    }
}

/// What the engine must know about one event of a cluster instance.
public struct EventInfo: Hashable, Sendable {
    package var id: EventID
    /// Privilege needed to read.
    package var readPrivilege: Privilege
    /// Records carry a fabric index and are shown only to that fabric.
    package var isFabricSensitive: Bool

    package init(_ id: EventID, read: Privilege = .view, fabricSensitive: Bool = false) {
        self.id = id
        self.readPrivilege = read
        self.isFabricSensitive = fabricSensitive
    }

    /// The info an event's schema implies.
    package init(_ schema: EventSchema) {
        self.init(schema.id, read: schema.readPrivilege, fabricSensitive: schema.isFabricSensitive)
    }
}
