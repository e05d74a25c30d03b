/// One thing that happened in a ``NotifyCenter``, as handed to its probes.
///
/// Events are plain values stamped on the thread where they happened; they hold no reference to
/// observers, objects or notifications, so a probe may keep them as long as it likes without
/// changing when anything in the app deallocates. Objects appear as an address (display text only:
/// addresses are reused) and a type.
public struct ProbeEvent: Sendable {
    /// `CLOCK_MONOTONIC` nanoseconds when the event happened (for a delivery: when it ended).
    public var timestamp: UInt64
    /// ``NotifyThread/id`` of the thread the event happened on.
    public var thread: UInt64
    /// What happened.
    public var kind: Kind

    public init(timestamp: UInt64, thread: UInt64, kind: Kind) {
        self.timestamp = timestamp
        self.thread = thread
        self.kind = kind
    }

    /// The kinds of event a center emits.
    public enum Kind: Sendable {
        /// A registration began (or, with `preexisting`, was live when the probe attached).
        indirect case registered(ProbeEvent.Registration)
        /// A notification was posted; its deliveries follow with the same `postID`.
        case posted(ProbeEvent.Post)
        /// One handler ran for one post.
        case delivered(ProbeEvent.Delivery)
        /// A registration ended; `callsite` is the `removeObserver` or `cancel()` call that ended it,
        /// nil when no call did (an owner or filter object died, a sequence ended).
        case removed(registration: UInt64, reason: ProbeEvent.RemovalReason, callsite: ProbeEvent.Callsite? = nil)
        /// The center found the object a registration filters on deallocated; it was last seen
        /// alive at `aliveAt` (monotonic nanoseconds). The registration's `removed` follows.
        case objectDead(registration: UInt64, aliveAt: UInt64)
        /// A ``NotifyQueue`` merged an enqueue into the later post `postID`.
        indirect case queueMerged(ProbeEvent.QueueMerge)
        /// The token of a live registration was released: only a bulk removal can end it now.
        case tokenDropped(registration: UInt64)
        /// `removeObserver` was called with something that matched no live registration.
        indirect case removeMissed(ProbeEvent.MissedRemoval)
        /// A ``NotifyQueue`` enqueued, coalesced, dequeued or flushed notifications.
        indirect case queue(ProbeEvent.QueueActivity)
        /// The app marked a moment with ``NotifyCenter/checkpoint(_:file:line:)``.
        indirect case checkpoint(label: String, callsite: ProbeEvent.Callsite)
        /// A typed message was queued for one observer: an `AsyncMessage` observer's mailbox or a
        /// `messages(of:for:bufferSize:)` buffer. Its delivery, if it happens, follows as `delivered`.
        case messageEnqueued(ProbeEvent.MessageEnqueue)
    }
}
