import MatterCore
import MatterStorage

/// A device's device types. ``get(_:)`` gives the endpoint of a type with its traits; iterating gives
/// an element each time the device reported a change (coalesced), for as long as the home is open.
public struct DeviceTypes: Sendable, AsyncSequence {
    public typealias Element = DeviceTypes
    public typealias Failure = Never

    let live: LiveDevice
    let home: HomeContext
    let stored: [NodeDeviceType]

    /// The first endpoint of the device with device type `type`, or nil. Waits for the device's first
    /// report when the home has not heard from it yet (or for that attempt to fail).
    public func get<T: DeviceType>(_ type: T.Type) async -> T? {
        await live.waitUntilSettled()
        guard let endpoint = endpoints(of: T.self).first else { return nil }
        return T(part: DevicePart(home: home, members: [PartMember(live: live, endpoint: endpoint)], group: nil))
    }

    /// Every endpoint with `type`.
    func endpoints<T: DeviceType>(of type: T.Type) -> [EndpointID] {
        let wanted = DeviceTypeID(T.matterDeviceTypeID)
        var reported = live.deviceTypes()
        if reported.isEmpty { reported = stored.map { (endpoint: $0.endpoint, deviceType: $0.deviceType) } }
        return reported.filter { $0.deviceType == wanted }.map(\.endpoint)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let types: DeviceTypes
        var updates: AsyncStream<Void>.AsyncIterator

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> DeviceTypes? {
            await updates.next(isolation: actor) == nil ? nil : types
        }

        public mutating func next() async -> DeviceTypes? {
            await next(isolation: nil)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(types: self, updates: live.updates().makeAsyncIterator())
    }
}
