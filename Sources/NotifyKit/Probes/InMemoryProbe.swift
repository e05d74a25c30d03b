import NotifySystem

/// A probe that keeps every event in memory: for tests, and for looking at a center from a debugger.
///
/// Events are recorded as probed posts record them for any viewer (in a ring per thread) and
/// gathered when ``events`` is read.
public final class InMemoryProbe: RecordingProbe, @unchecked Sendable {  // `lock` guards `storage`
    private let lock = Lock()
    private let rings: ProbeRecorder
    @exclusivity(unchecked) private var storage: [ProbeEvent] = []
    @exclusivity(unchecked) private var lost: UInt64 = 0

    /// - Parameter capacityPerThread: Events a thread may record between two reads of ``events``;
    ///   memory is taken only as it is used.
    public init(capacityPerThread: Int = 1 << 20) {
        rings = ProbeRecorder(capacityPerThread: capacityPerThread)
    }

    package var recorder: ProbeRecorder { rings }

    public func receive(_ event: ProbeEvent) {
        rings.receive(event)
    }

    /// Every event received so far, in the order they happened.
    public var events: [ProbeEvent] {
        lock.withLock {
            gather()
            return storage
        }
    }

    /// Events that found their thread's buffer full, so far.
    public var droppedCount: UInt64 {
        lock.withLock {
            gather()
            return lost
        }
    }

    /// Forgets what was received, so a test can look at what happens next.
    public func reset() {
        lock.withLock {
            gather()
            storage.removeAll(keepingCapacity: true)
        }
    }

    /// Must be called with `lock` held.
    private func gather() {
        lost &+= rings.drain(into: &storage)
    }
}
