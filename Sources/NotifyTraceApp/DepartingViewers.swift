/// Viewers the exporter cut off for falling behind that have not yet read their last lines (the
/// gaps and the `end` line that says why): stopped ones, most likely (`SIGSTOP`, Ctrl-Z).
///
/// Closing such a viewer at once would leave it, once it runs again, with a stream that stops
/// without an `end` line, which reads as a crash. So each keeps its socket and those few bytes
/// (its queue's spare capacity is let go), and no viewer slot, until it reads them, its peer goes
/// away, or ``patience`` passes. Beyond `capacity` at once, the one waiting longest is closed.
/// Owned by the exporter thread.
final class DepartingViewers {
    private var waiting: [(viewer: ViewerConnection, deadline: UInt64)] = []
    private let capacity: Int
    private var flushDueAt: UInt64 = 0
    /// How long a departing viewer is waited for.
    static let patience: UInt64 = 600_000_000_000
    /// How often departing viewers are written to: they need no haste, and each try is a system call.
    private static let flushInterval: UInt64 = 5_000_000

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { waiting.count }

    func contains(_ viewer: ViewerConnection) -> Bool { waiting.contains { $0.viewer === viewer } }

    /// Takes over a cut-off viewer whose last lines are still queued.
    func add(_ viewer: ViewerConnection, now: UInt64) {
        viewer.releaseSpareCapacity()
        waiting.append((viewer, now &+ Self.patience))
        if waiting.count > capacity { waiting.removeFirst().viewer.close() }
    }

    /// Writes what departing viewers take, every few milliseconds; closes those done or out of time.
    func flush(now: UInt64) {
        guard !waiting.isEmpty, now >= flushDueAt else { return }
        flushDueAt = now &+ Self.flushInterval
        for (viewer, deadline) in waiting {
            viewer.flush()
            if viewer.queuedByteCount == 0 || now >= deadline { viewer.close() }
        }
        waiting.removeAll { $0.viewer.isClosed }
    }

    /// At the end of the exporter: a last write to each, then closes them all.
    func closeAll() {
        for (viewer, _) in waiting {
            viewer.flush()
            viewer.close()
        }
        waiting.removeAll()
    }
}
