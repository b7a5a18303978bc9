/// An access privilege (spec 6.6.2.2): what a subject may do with an element. Higher privileges imply
/// the lower ones (`administer` can do everything `view` can).
public enum Privilege: UInt8, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Read (`V`).
    case view = 1
    /// Read through a proxy (`P`).
    case proxyView = 2
    /// Operate the device: invoke ordinary commands, write operational attributes (`O`).
    case operate = 3
    /// Change the device's configuration (`M`).
    case manage = 4
    /// Manage access control and fabrics (`A`).
    case administer = 5

    public static func < (a: Privilege, b: Privilege) -> Bool { a.rawValue < b.rawValue }

    /// True when a subject holding `self` may do what `required` allows.
    public func grants(_ required: Privilege) -> Bool { self >= required }

    /// Lower-case name (`view`, `proxy-view`, `operate`, `manage`, `administer`).
    public var description: String {
        switch self {
        case .view: "view"
        case .proxyView: "proxy-view"
        case .operate: "operate"
        case .manage: "manage"
        case .administer: "administer"
        }
    }
}
