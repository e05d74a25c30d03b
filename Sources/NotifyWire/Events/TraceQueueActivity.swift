/// What a notification queue did; mirrors NotifyKit's `ProbeEvent.QueueActivity`.
public struct TraceQueueActivity: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds of the action.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the queue's thread.
    public var thread: UInt64
    /// Identifies the queue within the process; never reused.
    public var queueID: UInt64
    /// What the queue did.
    public var action: TraceQueueAction
    /// The notification name concerned; nil for flushes.
    public var name: String?
    /// The posting style, `"now"`, `"asap"` or `"idle"`; nil for coalesces and dequeues.
    public var style: String?
    /// How many notifications the action concerned.
    public var count: Int
    /// Notifications still pending after the action.
    public var pending: Int

    /// Creates a queue event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, queueID: UInt64, action: TraceQueueAction,
        name: String?, style: String?, count: Int, pending: Int
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.queueID = queueID
        self.action = action
        self.name = name
        self.style = style
        self.count = count
        self.pending = pending
    }
}

/// A queue's action; raw values equal NotifyKit's `ProbeEvent.QueueActivity.Action`.
public enum TraceQueueAction: String, Sendable, Hashable, CaseIterable {
    /// A notification was added (or posted at once, for style `"now"`).
    case enqueued
    /// Pending notifications were replaced by a newer one; `count` says how many.
    case coalesced
    /// `dequeueNotifications` removed `count` pending notifications.
    case dequeued
    /// A run-loop pass posted `count` pending notifications.
    case flushed
}
