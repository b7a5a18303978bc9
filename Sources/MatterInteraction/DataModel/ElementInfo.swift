public import MatterClusters
public import MatterCore

/// What the engine must know about one attribute of a cluster instance to check a request before the
/// data model sees it.
public struct AttributeInfo: Hashable, Sendable {
    public var id: AttributeID
    /// Privilege needed to read.
    public var readPrivilege: Privilege
    /// Privilege needed to write; nil for read-only attributes (writes get UNSUPPORTED_WRITE).
    public var writePrivilege: Privilege?
    /// A list attribute: whole-list writes replace it, `ListIndex = null` appends an entry.
    public var isList: Bool
    /// A fabric-scoped list: writes need an accessing fabric, and the engine sets each written entry's
    /// FabricIndex (tag 0xFE) to it.
    public var isFabricScoped: Bool
    /// Writes must be timed.
    public var requiresTimedWrite: Bool

    public init(
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
    public init(_ schema: AttributeSchema) {
        self.init(
            schema.id, read: schema.readPrivilege, write: schema.writePrivilege, list: schema.type.isList,
            fabricScoped: schema.isFabricScoped, timed: schema.requiresTimedWrite)
    }
}

/// What the engine must know about one accepted command of a cluster instance.
public struct CommandInfo: Hashable, Sendable {
    public var id: CommandID
    /// Privilege needed to invoke.
    public var privilege: Privilege
    /// Must be invoked in a timed interaction.
    public var requiresTimedInvoke: Bool
    /// Needs an accessing fabric.
    public var isFabricScoped: Bool

    public init(_ id: CommandID, privilege: Privilege = .operate, timed: Bool = false, fabricScoped: Bool = false) {
        self.id = id
        self.privilege = privilege
        self.requiresTimedInvoke = timed
        self.isFabricScoped = fabricScoped
    }

    /// The info a command's schema implies.
    public init(_ schema: CommandSchema) {
        self.init(
            schema.id, privilege: schema.privilege, timed: schema.requiresTimedInvoke,
            fabricScoped: schema.isFabricScoped)
    }
}

/// What the engine must know about one event of a cluster instance.
public struct EventInfo: Hashable, Sendable {
    public var id: EventID
    /// Privilege needed to read.
    public var readPrivilege: Privilege
    /// Records carry a fabric index and are shown only to that fabric.
    public var isFabricSensitive: Bool

    public init(_ id: EventID, read: Privilege = .view, fabricSensitive: Bool = false) {
        self.id = id
        self.readPrivilege = read
        self.isFabricSensitive = fabricSensitive
    }

    /// The info an event's schema implies.
    public init(_ schema: EventSchema) {
        self.init(schema.id, read: schema.readPrivilege, fabricSensitive: schema.isFabricSensitive)
    }
}
