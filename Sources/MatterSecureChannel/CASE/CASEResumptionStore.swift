package import MatterCore
import Synchronization

/// Resumption records of finished CASE handshakes (spec 4.14.2.2): the shared secret and the latest
/// resumption ID, so a later Sigma1 can skip certificates. Kept in memory for the process's life.
package final class CASEResumptionStore: Sendable {
    package struct Record: Sendable, Equatable {
        package var resumptionID: [UInt8]
        package var sharedSecret: [UInt8]
        package var fabricIndex: UInt8
        package var peerNodeID: NodeID
        package var peerCATs: [UInt32]
    }

    private struct Peer: Hashable {
        var fabricIndex: UInt8
        var nodeID: NodeID
    }

    private struct State {
        var byID: [[UInt8]: Record] = [:]
        var byPeer: [Peer: [UInt8]] = [:]
    }

    private let state = Mutex(State())
    /// Records kept at most; the oldest goes first.
    let capacity: Int

    package init(capacity: Int = 256) { self.capacity = capacity }

    /// Stores (or replaces) the record for the record's peer.
    package func save(_ record: Record) {
        state.withLock { state in
            let peer = Peer(fabricIndex: record.fabricIndex, nodeID: record.peerNodeID)
            if let old = state.byPeer[peer] { state.byID[old] = nil }
            if state.byID.count >= capacity, let victim = state.byID.keys.first {
                if let r = state.byID.removeValue(forKey: victim) {
                    state.byPeer[Peer(fabricIndex: r.fabricIndex, nodeID: r.peerNodeID)] = nil
                }
            }
            state.byID[record.resumptionID] = record
            state.byPeer[peer] = record.resumptionID
        }
    }

    package func record(resumptionID: [UInt8]) -> Record? { state.withLock { $0.byID[resumptionID] } }

    package func record(fabricIndex: UInt8, peerNodeID: NodeID) -> Record? {
        state.withLock { state in
            state.byPeer[Peer(fabricIndex: fabricIndex, nodeID: peerNodeID)].flatMap { state.byID[$0] }
        }
    }

    /// Drops every record of a fabric (removed or updated).
    package func removeFabric(_ fabricIndex: UInt8) {
        state.withLock { state in
            for (id, record) in state.byID where record.fabricIndex == fabricIndex {
                state.byID[id] = nil
                state.byPeer[Peer(fabricIndex: record.fabricIndex, nodeID: record.peerNodeID)] = nil
            }
        }
    }

    package var count: Int { state.withLock { $0.byID.count } }
}
