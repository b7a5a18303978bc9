import MatterCore
import MatterDiscovery
import MatterTransport
import Synchronization

/// A DNS-SD lookup of a just-commissioned node's operational record (`<fabric>-<node>._matter._tcp`)
/// running in the background while CASE is opened at the commissioning address: the commissioning
/// does not wait for Avahi, and still learns the address the node advertises when it arrives.
final class OperationalLookup: Sendable {
    typealias Candidates = [(address: UDPAddress, mrp: MRPParameters)]

    /// The lookup's result once it has one, readable without waiting.
    private final class Outcome: Sendable {
        let value = Mutex<Result<Candidates, ControllerError>?>(nil)
    }

    private let outcome = Outcome()
    private let finished: Task<Result<Candidates, ControllerError>, Never>

    init(
        browser: any MatterNodeBrowser, compressedFabricID: UInt64, nodeID: NodeID, timeout: Duration,
        clock: any MatterClock, log: Logger
    ) {
        let outcome = self.outcome
        let start = clock.nowMilliseconds()
        finished = Task {
            let result: Result<Candidates, ControllerError>
            do throws(ControllerError) {
                result = .success(
                    try await Self.resolve(
                        browser, compressedFabricID: compressedFabricID, nodeID: nodeID, timeout: timeout))
            } catch {
                result = .failure(error)
            }
            let elapsed = clock.nowMilliseconds() &- start
            switch result {
            case .success(let found):
                log.info(
                    "operational record of node \(nodeID) after \(elapsed) ms: "
                        + found.map(\.address.description).joined(separator: ", "))
            case .failure(let error):
                log.info("operational lookup of node \(nodeID) ended after \(elapsed) ms: \(error)")
            }
            outcome.value.withLock { $0 = result }
            return result
        }
    }

    /// The advertised addresses, waiting for the lookup if it has not answered yet.
    func candidates() async throws(ControllerError) -> Candidates {
        try await finished.value.get()
    }

    /// The address to remember for the node: `session` (where CASE succeeded) when the lookup has
    /// not answered yet, failed, or lists it; else the first advertised address.
    func advertisedAddress(preferring session: UDPAddress) -> UDPAddress {
        guard case .success(let found)? = outcome.value.withLock({ $0 }), let first = found.first,
            !found.contains(where: { $0.address == session })
        else { return session }
        return first.address
    }

    /// Stops a lookup still running (its result is no longer needed).
    func cancel() { finished.cancel() }

    /// Resolves the node's operational record: its addresses with the MRP intervals it advertises.
    static func resolve(
        _ browser: any MatterNodeBrowser, compressedFabricID: UInt64, nodeID: NodeID, timeout: Duration
    ) async throws(ControllerError) -> Candidates {
        do {
            let found = try await browser.resolveOperational(
                compressedFabricID: compressedFabricID, nodeID: nodeID, timeout: timeout)
            let mrp = MRPParameters(found.advertisement.sessionParameters)
            let addresses = found.addresses.udpAddresses(port: found.port).map { ($0, mrp) }
            guard !addresses.isEmpty else { throw ControllerError.unreachable("\(found.instanceName) has no address") }
            return addresses
        } catch let error as ControllerError {
            throw error
        } catch {
            throw .unreachable("the device did not advertise itself on the new fabric: \(error)")
        }
    }
}
