/// A notification was posted; mirrors NotifyKit's `ProbeEvent.Post`.
public struct TracePost: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the post began delivering.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the posting thread.
    public var thread: UInt64
    /// Unique in its process, across centers; deliveries of this post carry it.
    public var postID: UInt64
    /// The notification's name.
    public var name: String
    /// The ``TraceObject/id`` of the sender; nil when there is none (or it is not a class instance).
    public var object: UInt64?
    /// Whether the notification carried a `userInfo` dictionary.
    public var hasUserInfo: Bool
    /// How many registrations matched when the post took its snapshot.
    public var matched: Int
    /// 1 for a post from outside any handler, 2 for a post made inside a handler, and so on.
    public var depth: Int
    /// The post whose handler made this post (possibly on another center); 0 when none.
    public var parentPostID: UInt64
    /// The ``TraceCallsite/id`` of the `post` call.
    public var callsite: UInt64
    /// The protocol of a typed message, whose ``name`` is then the message type's name; nil for a
    /// notification (format 1.2).
    public var message: TraceMessageKind?
    /// The index of the post's center in the header's `centers`; nil in a one-center stream.
    public var center: UInt32?

    /// Creates a post event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, name: String, object: UInt64?,
        hasUserInfo: Bool, matched: Int, depth: Int, parentPostID: UInt64, callsite: UInt64,
        message: TraceMessageKind? = nil, center: UInt32? = nil
    ) {
        self.center = center
        self.message = message
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.postID = postID
        self.name = name
        self.object = object
        self.hasUserInfo = hasUserInfo
        self.matched = matched
        self.depth = depth
        self.parentPostID = parentPostID
        self.callsite = callsite
    }
}

/// Which protocol a posted typed message conforms to; raw values equal NotifyKit's `ProbeEvent.MessageKind`.
public enum TraceMessageKind: String, Sendable, Hashable, CaseIterable {
    /// A `MainActorMessage`: delivered inside `post`, on the main actor.
    case mainActor = "main"
    /// An `AsyncMessage`: `post` enqueues into each observer's mailbox; observers run later.
    case async
}

/// One handler run for one post, as a single line with its duration; mirrors NotifyKit's
/// `ProbeEvent.Delivery`.
///
/// The event's ``timestamp`` is when the handler ended, so `timestamp == start + duration`.
public struct TraceDelivery: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the handler ended.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the delivering thread, where the handler ran.
    public var thread: UInt64
    /// The ``TracePost/postID`` being delivered.
    public var postID: UInt64
    /// The ``TraceRegistration/id`` whose handler ran.
    public var registration: UInt64
    /// The notification's name, repeated so a delivery reads on its own.
    public var name: String
    /// The ``TraceThread/id`` of the thread that posted.
    public var postingThread: UInt64
    /// Where the handler ran.
    public var target: TraceTargetKind
    /// Monotonic nanoseconds when the handler started.
    public var start: UInt64
    /// Nanoseconds the handler ran.
    public var duration: UInt64
    /// Nanoseconds between the hand-off and the start (queueing delay); 0 for inline delivery.
    public var wait: UInt64
    /// The post depth on the delivering thread while the handler ran.
    public var depth: Int

    /// Creates a delivery event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, postID: UInt64, registration: UInt64, name: String,
        postingThread: UInt64, target: TraceTargetKind, start: UInt64, duration: UInt64, wait: UInt64, depth: Int
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.postID = postID
        self.registration = registration
        self.name = name
        self.postingThread = postingThread
        self.target = target
        self.start = start
        self.duration = duration
        self.wait = wait
        self.depth = depth
    }
}
