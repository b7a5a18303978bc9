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

    /// True when the device has an endpoint of device type `type` (the Home API's `contains`).
    public func contains<T: DeviceType>(_ type: T.Type) async -> Bool {
        await live.waitUntilSettled()
        return !endpoints(of: T.self).isEmpty
    }

    /// True when the device has an endpoint of device type `type` as far as the home knows now, without
    /// waiting for its first report (the Home API's synchronous `contains`, for code outside an async context).
    public func contains<T: DeviceType>(_ type: T.Type) -> Bool {
        !endpoints(of: T.self).isEmpty
    }

    /// Every endpoint of the device with device type `type`, in endpoint order (a bridge's lights, a
    /// power strip's outlets).
    public func getAll<T: DeviceType>(of type: T.Type) async -> [T] {
        await live.waitUntilSettled()
        return endpoints(of: T.self).map { endpoint in
            T(part: DevicePart(home: home, members: [PartMember(live: live, endpoint: endpoint)], group: nil))
        }
    }

    /// How many device types the device's endpoints have in all (endpoint 0's Root Node included).
    public var count: Int {
        get async {
            await live.waitUntilSettled()
            let reported = live.deviceTypes()
            return reported.isEmpty ? stored.count : reported.count
        }
    }

    /// The device type `type` now and after each change the device reports (coalesced), while the home is
    /// open; nothing when the device has no such endpoint.
    public func subscribe<T: DeviceType>(_ type: T.Type) -> AsyncStream<T> {
        let types = self
        let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            guard let current = await types.get(T.self) else {
                continuation.finish()
                return
            }
            continuation.yield(current)
            for await _ in types {
                if let next = await types.get(T.self) { continuation.yield(next) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
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
