/// Work a viewer's stream does not carry as events (format 1.4): what one thread posted and
/// delivered of one name before the viewer attached, or while no line of it reached the viewer.
///
/// History lines are additive: a reader adds every one it gets, whenever it arrives, so a
/// producer sends totals in a snapshot and the differences later. Each post and each delivery
/// counts once: as an event the stream carries, or in exactly one history line.
public struct TraceHistory: Sendable, Hashable {
    /// Monotonic nanoseconds when the producer took these totals.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the thread that posted (``posts``, ``unheard``) or delivered
    /// (``deliveries``).
    public var thread: UInt64
    /// The notification's name, or a typed message's type name as ``TracePost/name`` spells it;
    /// nil for names the producer could not keep apart (its "other names").
    public var name: String?
    /// Posts of the name on the thread.
    public var posts: UInt64
    /// Handlers run for the name on the thread.
    public var deliveries: UInt64
    /// Posts, among ``posts``, that matched no registration.
    public var unheard: UInt64
    /// The registration whose handler ran ``deliveries`` (a `register` line before), nil when the
    /// line does not say (format 1.6).
    public var registration: UInt64?
    /// Whether the counts are of work done since the producer's previous line, up to ``timestamp``
    /// (a producer that counts instead of sending events): they count in rates as events would
    /// (format 1.6). False for work before the viewer attached.
    public var recent: Bool

    /// Creates a history line.
    public init(
        timestamp: UInt64, thread: UInt64, name: String?, posts: UInt64 = 0, deliveries: UInt64 = 0,
        unheard: UInt64 = 0, registration: UInt64? = nil, recent: Bool = false
    ) {
        self.registration = registration
        self.recent = recent
        self.timestamp = timestamp
        self.thread = thread
        self.name = name
        self.posts = posts
        self.deliveries = deliveries
        self.unheard = unheard
    }
}

/// How many registrations of one name a call site had live just after one of its recent changes
/// (format 1.4): a late viewer's view of registration growth before it attached.
public struct TraceSiteCount: Sendable, Hashable {
    /// Monotonic nanoseconds when the count changed.
    public var timestamp: UInt64
    /// The name observed; nil for registrations that observe every name.
    public var name: String?
    /// The ``TraceCallsite/id`` of the registering call.
    public var callsite: UInt64
    /// Registrations of the name from the call site live after the change.
    public var live: UInt64

    /// Creates a site count.
    public init(timestamp: UInt64, name: String?, callsite: UInt64, live: UInt64) {
        self.timestamp = timestamp
        self.name = name
        self.callsite = callsite
        self.live = live
    }
}
