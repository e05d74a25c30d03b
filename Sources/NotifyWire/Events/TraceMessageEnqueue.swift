/// A typed message was queued for one observer: an `AsyncMessage` observer's mailbox or a message
/// sequence's buffer (format 1.2); mirrors NotifyKit's `ProbeEvent.MessageEnqueue`. The delivery, if it
/// happens, follows as a ``TraceDelivery`` with the same post id and registration.
public struct TraceMessageEnqueue: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds of the enqueue.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the posting thread.
    public var thread: UInt64
    /// The ``TracePost/postID`` queued.
    public var postID: UInt64
    /// The ``TraceRegistration/id`` whose mailbox or buffer took it.
    public var registration: UInt64
    /// Messages waiting for this observer after the enqueue, this one included.
    public var pending: Int
    /// The sequence's buffer was full, so its oldest message was dropped to make room.
    public var droppedOldest: Bool

    /// Creates an enqueue event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64, pending: Int,
        droppedOldest: Bool
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.postID = postID
        self.registration = registration
        self.pending = pending
        self.droppedOldest = droppedOldest
    }
}
