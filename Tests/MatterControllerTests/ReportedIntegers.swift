import MatterController
import MatterCore
import MatterInteraction
import MatterTLV
import Synchronization
import Testing

/// A subscription to integer attributes that keeps every value reported for each path, in order (signed and
/// unsigned alike, as Int64).
final class ReportedIntegers: Sendable {
    private let values = Mutex<[ConcreteAttributePath: [Int64]]>([:])
    private let box = Mutex<ClientSubscription?>(nil)

    var subscription: ClientSubscription {
        get throws { try #require(box.withLock { $0 }) }
    }

    subscript(path: ConcreteAttributePath) -> [Int64] { values.withLock { $0[path] ?? [] } }

    static func subscribe(_ controller: Controller, _ node: NodeID, _ paths: [ConcreteAttributePath]) async throws
        -> ReportedIntegers
    {
        let reported = ReportedIntegers()
        let subscription = try await controller.subscribe(
            node, paths: paths.map { AttributePathIB($0) }, minInterval: 0, maxInterval: 10,
            onReport: { report in
                for path in paths {
                    let number: Int64? =
                        switch report.result.report(for: path)?.value {
                        case .signed(let value)?: value
                        case .unsigned(let value)?: Int64(exactly: value)
                        default: nil
                        }
                    if let number { reported.values.withLock { $0[path, default: []].append(number) } }
                }
            })
        reported.box.withLock { $0 = subscription }
        return reported
    }
}
