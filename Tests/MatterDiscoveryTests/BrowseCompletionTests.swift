import MatterTestSupport
import Testing

@testable import MatterDiscovery

/// When an Avahi browse with a limit may return: once its instances are resolved and either Avahi
/// reported its first complete round or the settle delay passed (Avahi's round takes about a second).
@Suite("Avahi browse completion")
struct BrowseCompletionTests {
    static let query = DNSSDQuery(serviceType: "_matterc._udp", subtype: "_L3840")

    static func item(_ name: String, proto: Int32) -> AvahiBrowseItem {
        AvahiBrowseItem(interface: 2, proto: proto, name: name, type: "_matterc._udp", domain: "local")
    }

    static func service(_ name: String) -> DNSSDResolvedService {
        DNSSDResolvedService(
            serviceType: "_matterc._udp", instanceName: name, hostName: "h1.local", port: 5540,
            txt: DNSSDTXTRecord(wireStrings: []), addresses: [])
    }

    /// Runs `body` on a browse operation with `limit`, then ends its continuation.
    static func withOperation<T>(limit: Int?, _ body: (inout BrowseOperation) -> T) async -> T? {
        var value: T?
        _ = await withCheckedContinuation { continuation in
            var operation = BrowseOperation(
                query: query, limit: limit, accept: { _ in true }, continuation: continuation)
            value = body(&operation)
            operation.continuation.resume(returning: .success([]))
        }
        return value
    }

    @Test func aResolvedInstanceCompletesAfterSettlingWithoutAllForNow() async {
        let states = await Self.withOperation(limit: 1) { operation -> [Bool] in
            var seen: [Bool] = []
            operation.pending[1] = Self.item("A", proto: 1)
            seen += [operation.isSatisfied, operation.isComplete]  // resolver running
            operation.pending[1] = nil
            operation.found["a"] = BrowseOperation.Found(service: Self.service("A"), addresses: [])
            operation.order.append("a")
            seen += [operation.isSatisfied, operation.isComplete]  // resolved, not settled
            operation.settled = true
            seen.append(operation.isComplete)
            return seen
        }
        #expect(states == [false, false, true, false, true])
    }

    @Test func allForNowCompletesASatisfiedBrowseAtOnce() async {
        let complete = await Self.withOperation(limit: 1) { operation -> Bool in
            operation.found["a"] = BrowseOperation.Found(service: Self.service("A"), addresses: [])
            operation.order.append("a")
            operation.allForNow = true
            return operation.isComplete
        }
        #expect(complete == true)
    }

    @Test func anotherAddressStillResolvingHoldsTheBrowse() async {
        let states = await Self.withOperation(limit: 1) { operation -> [Bool] in
            operation.found["a"] = BrowseOperation.Found(service: Self.service("A"), addresses: [])
            operation.order.append("a")
            operation.settled = true
            operation.allForNow = true
            operation.pending[7] = Self.item("A", proto: 0)  // the IPv6 item of the same instance
            let held = operation.isComplete
            operation.pending[7] = nil
            return [held, operation.isComplete]
        }
        #expect(states == [false, true])
    }

    @Test func unlimitedBrowsesRunUntilTheirTimeout() async {
        let complete = await Self.withOperation(limit: nil) { operation -> Bool in
            operation.found["a"] = BrowseOperation.Found(service: Self.service("A"), addresses: [])
            operation.order.append("a")
            operation.allForNow = true
            operation.settled = true
            return operation.isComplete
        }
        #expect(complete == false)
    }

    @Test func fewerInstancesThanTheLimitNeverComplete() async {
        let complete = await Self.withOperation(limit: 2) { operation -> Bool in
            operation.found["a"] = BrowseOperation.Found(service: Self.service("A"), addresses: [])
            operation.order.append("a")
            operation.allForNow = true
            operation.settled = true
            return operation.isComplete
        }
        #expect(complete == false)
    }
}
