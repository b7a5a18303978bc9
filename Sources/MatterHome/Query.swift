/// The Home API's query of home objects (`home.devices()`, `home.structures()`, `home.rooms()`): the current
/// set with ``list()``, the set again at every change with ``batched()``, each object as it appears or
/// changes with ``stream()``. The Home API's `batched()` and `stream()` are Combine publishers; Combine does
/// not exist on Linux, so here they are `AsyncThrowingStream`s with the same names.
///
/// Changes are seen however they are made: by this home, by another `Home` or by the `matter-emu` CLI on the
/// same state directory, in this process or another (the store is looked at every ``pollInterval``). A
/// sequence ends when the home is closed or its task is cancelled; it fails with the first `HomeError`.
public struct Query<Element: Sendable & Hashable & Identifiable>: Sendable where Element.ID: Sendable {
    let home: HomeContext
    let snapshot: @Sendable () async throws(HomeError) -> Set<Element>

    /// How often ``batched()`` and ``stream()`` look at the store.
    public static var pollInterval: Duration { .milliseconds(200) }

    /// The objects as they are now.
    public func list() async throws(HomeError) -> Set<Element> { try await snapshot() }

    /// The objects as they are now, then again after each change (a device commissioned or removed,
    /// renamed, moved to another room; a room created or deleted; the structure renamed).
    public func batched() -> AsyncThrowingStream<Set<Element>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Set<Element>, any Error>.makeStream()
        let home = self.home
        let snapshot = self.snapshot
        let task = Task {
            var last: Set<Element>?
            while !Task.isCancelled, !home.isClosed {
                do {
                    let now = try await snapshot()
                    if now != last {
                        continuation.yield(now)
                        last = now
                    }
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                try? await Task.sleep(for: Self.pollInterval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Each object as it is now, then each object that appears or changes, as it does (an object that is
    /// removed is no longer in ``batched()``'s sets; it is not yielded here).
    public func stream() -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let batches = batched()
        let task = Task {
            var known: Set<Element> = []
            do {
                for try await batch in batches {
                    for element in batch.subtracting(known).sorted(by: { "\($0.id)" < "\($1.id)" }) {
                        continuation.yield(element)
                    }
                    known = batch
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
