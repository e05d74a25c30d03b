import NotifySystem
/// A probe that keeps every event in memory: for tests, and for looking at a center from a debugger.
public final class InMemoryProbe: NotifyProbe, @unchecked Sendable {  // `lock` guards `storage`
    private let lock = Lock()
    @exclusivity(unchecked) private var storage: [ProbeEvent] = []

    public init() {}

    public func receive(_ event: ProbeEvent) {
        lock.lock()
        storage.append(event)
        lock.unlock()
    }

    /// Every event received so far, in arrival order.
    public var events: [ProbeEvent] {
        lock.withLock { storage }
    }

    /// Forgets what was received, so a test can look at what happens next.
    public func reset() {
        lock.withLock { storage.removeAll(keepingCapacity: true) }
    }
}
