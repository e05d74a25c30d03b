/// A probe that keeps every event in memory: for tests, and for looking at a center from a debugger.
public final class InMemoryProbe: NotifyProbe {
    private let storage = LockedValue<[NotifyEvent]>([])

    public init() {}

    public func receive(_ event: NotifyEvent) {
        storage.withLock { $0.append(event) }
    }

    /// Every event received so far, in arrival order.
    public var events: [NotifyEvent] {
        storage.withLock { $0 }
    }

    /// Forgets what was received, so a test can look at what happens next.
    public func reset() {
        storage.withLock { $0.removeAll(keepingCapacity: true) }
    }
}
