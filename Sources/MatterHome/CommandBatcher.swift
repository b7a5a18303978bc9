import MatterClusters
import MatterController
import MatterCore
import MatterInteraction
import MatterTLV
import Synchronization

/// Collects the commands of one ``Home/sendBatchedCommands(_:)``: each ``add(_:)`` returns a
/// ``ResultProvider`` that holds the command's result once the batch was sent.
public final class CommandBatcher: Sendable {
    /// One added command, with where its result goes.
    struct Entry: Sendable {
        let part: DevicePart
        let cluster: ClusterID
        let command: CommandID
        let fields: Result<[TLVElement], HomeError>
        let slot: Slot
    }

    /// The result of one added command, filled when the batch was sent.
    final class Slot: Sendable {
        private let outcome = Mutex<Result<InvokeResult, HomeError>?>(nil)

        var value: Result<InvokeResult, HomeError>? { outcome.withLock { $0 } }

        func fill(_ result: Result<InvokeResult, HomeError>) { outcome.withLock { $0 = result } }
    }

    private let state = Mutex<(entries: [Entry], sent: Bool)>(([], false))

    init() {}

    /// Adds `batchable` to the batch; its result is in the returned provider once the batch was sent.
    /// Adding to a batch already sent is refused (the provider throws `failedPrecondition`).
    @discardableResult
    public func add<ResponseType>(_ batchable: BatchableCommand<ResponseType>) -> ResultProvider<ResponseType> {
        let slot = Slot()
        let added = state.withLock { state in
            guard !state.sent else { return false }
            state.entries.append(
                Entry(
                    part: batchable.part, cluster: batchable.cluster, command: batchable.command,
                    fields: batchable.fields, slot: slot))
            return true
        }
        if !added {
            slot.fill(
                .failure(.invalid("the batch was already sent: add commands in its closure", code: .failedPrecondition))
            )
        }
        return ResultProvider(slot: slot, decode: batchable.decode)
    }

    /// The commands added, once: the batch is sent.
    func take() -> [Entry] {
        state.withLock { state in
            state.sent = true
            return state.entries
        }
    }

    /// The result of one command of a batch.
    public struct ResultProvider<ResponseType: Sendable>: Sendable {
        let slot: Slot
        let decode: @Sendable (InvokeResult) throws(HomeError) -> ResponseType

        /// True when the command succeeded (its response, if any, read).
        public var isSuccessful: Bool {
            do {
                _ = try getOrThrow()
                return true
            } catch {
                return false
            }
        }

        /// The command's response (nothing for a command answered with a status), or its failure: the
        /// device's status, the device unreachable, or `failedPrecondition` before the batch was sent.
        public func getOrThrow() throws(HomeError) -> ResponseType {
            switch slot.value {
            case nil:
                throw .invalid(
                    "the batch has not been sent: read results after sendBatchedCommands returns",
                    code: .failedPrecondition)
            case .failure(let error)?:
                throw error
            case .success(let result)?:
                return try decode(result)
            }
        }
    }
}
