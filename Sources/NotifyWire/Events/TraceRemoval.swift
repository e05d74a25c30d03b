/// A registration ended; mirrors NotifyKit's `removed` event.
public struct TraceRemoval: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the registration ended.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the thread that ended it.
    public var thread: UInt64
    /// The ``TraceRegistration/id`` that ended.
    public var registration: UInt64
    /// Why it ended.
    public var reason: TraceRemovalReason
    /// The ``TraceCallsite/id`` of the `removeObserver` or `cancel()` call that ended it (1.5); nil
    /// when no call did (an owner or filter object died, a sequence ended) or the producer is older.
    public var callsite: UInt64?

    /// Creates a removal event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, registration: UInt64, reason: TraceRemovalReason,
        callsite: UInt64? = nil
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.registration = registration
        self.reason = reason
        self.callsite = callsite
    }
}

/// Why a registration ended; raw values equal NotifyKit's `ProbeEvent.RemovalReason`.
public enum TraceRemovalReason: String, Sendable, Hashable, CaseIterable {
    /// `removeObserver` was called.
    case explicit
    /// The registration's token was cancelled.
    case tokenCancelled = "token-cancelled"
    /// The target or owner deallocated.
    case observerDeallocated = "observer-deallocated"
    /// The object filter deallocated.
    case objectDeallocated = "object-deallocated"
    /// An async sequence's iterator went away or its task was cancelled.
    case sequenceEnded = "sequence-ended"
    /// The center deallocated with the registration in it (a NotifyKit center's deinit, or
    /// Foundation's `NotificationCenter.deinit` seen by `--foundation`): every registration it
    /// still had ends with it.
    case centerDeallocated = "center-ended"
}

/// The token of a live registration was released without being cancelled; only a bulk removal
/// can end the registration now, which is usually a leak.
public struct TraceTokenDrop: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the token was released.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the thread that released it.
    public var thread: UInt64
    /// The ``TraceRegistration/id`` whose token was dropped.
    public var registration: UInt64

    /// Creates a token-dropped event.
    public init(seq: UInt64, timestamp: UInt64, thread: UInt64, registration: UInt64) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.registration = registration
    }
}

/// A `removeObserver` call that matched no live registration: a likely bug the dashboard reports.
public struct TraceMissedRemoval: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds of the call.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the calling thread.
    public var thread: UInt64
    /// The ``TraceObject/id`` of the object passed to `removeObserver`.
    public var observer: UInt64
    /// The name passed; nil when the call named none.
    public var name: String?
    /// The ``TraceCallsite/id`` of the call.
    public var callsite: UInt64

    /// Creates a remove-missed event.
    public init(seq: UInt64, timestamp: UInt64, thread: UInt64, observer: UInt64, name: String?, callsite: UInt64) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.observer = observer
        self.name = name
        self.callsite = callsite
    }
}
