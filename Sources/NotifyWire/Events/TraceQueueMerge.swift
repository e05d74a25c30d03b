/// Enqueues that a notification queue coalesced into a later post (format 1.5): newer enqueues of
/// the same name or sender replaced them, and the survivor was posted as `postID`. One line per call
/// site of the merged enqueues, written after the post's line.
public struct TraceQueueMerge: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the queue posted the survivor.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the queue's thread.
    public var thread: UInt64
    /// The queue, as ``TraceQueueActivity/queueID``.
    public var queueID: UInt64
    /// The ``TracePost/postID`` the enqueue was merged into.
    public var postID: UInt64
    /// The ``TraceCallsite/id`` of the merged `enqueue` calls.
    public var callsite: UInt64
    /// How many enqueues from that site were merged.
    public var count: UInt64
    /// Monotonic nanoseconds when the first of them was made.
    public var enqueuedAt: UInt64

    /// Creates a merge event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, queueID: UInt64, postID: UInt64, callsite: UInt64,
        count: UInt64, enqueuedAt: UInt64
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.queueID = queueID
        self.postID = postID
        self.callsite = callsite
        self.count = count
        self.enqueuedAt = enqueuedAt
    }
}
