import MatterCore

/// A Matter cluster seen as a Home API trait (`Matter.OnOffTrait`...), on a device endpoint or a group
/// part.
public protocol Trait: Sendable {
    /// The Matter cluster ID the trait stands for.
    static var clusterID: UInt32 { get }
    /// The trait on `part` (made by the home).
    init(part: DevicePart)
    /// What the trait acts on.
    var part: DevicePart { get }
}

extension Trait {
    /// Reads the trait's cluster from the device now, rather than waiting for the home's subscription to
    /// report it (the Home API's `forceRead`); returns the trait, its attributes current.
    /// - Throws: `invalidArgument` on a group part; the device's failure otherwise.
    @discardableResult
    public func forceRead() async throws(HomeError) -> Self {
        try await part.read(ClusterID(Self.clusterID))
        return self
    }
}

/// The Home API's namespace for Matter traits.
public enum Matter {}

/// The traits of a part by type: `deviceType.traits[Matter.OnOffTrait.self]`.
public struct Traits: Sendable {
    let part: DevicePart

    /// The trait when the endpoint (for a group part: any member) has its cluster; nil otherwise.
    public subscript<T: Trait>(_ type: T.Type) -> T? {
        part.hasCluster(ClusterID(T.clusterID)) ? T(part: part) : nil
    }
}

/// The Matter traits of a part by name: `deviceType.matterTraits.onOffTrait`.
public struct MatterTraits: Sendable {
    let part: DevicePart

    var traits: Traits { Traits(part: part) }
}
