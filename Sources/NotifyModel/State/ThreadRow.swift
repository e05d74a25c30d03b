public import NotifyWire

/// One thread of the per-thread view: who it is, how much handler work it did, and its recent
/// deliveries.
///
/// Why a ring log: the view shows what a thread did lately; keeping every delivery would grow
/// without bound, so the oldest entries are overwritten and counted in ``droppedLogEntries``.
public struct ThreadRow: Sendable, Hashable, Identifiable {
    /// The trace's thread id, stable and never reused.
    public let id: UInt64
    /// The name when first seen (a label, not identity).
    public internal(set) var name: String
    /// The kernel thread id.
    public internal(set) var systemID: Int32
    /// True only for the process's initial thread.
    public internal(set) var isMain: Bool
    /// Handler runs on this thread.
    public internal(set) var deliveries: UInt64 = 0
    /// Nanoseconds spent in those handlers.
    public internal(set) var timeInHandlers: UInt64 = 0
    /// Posts made on this thread.
    public internal(set) var posts: UInt64 = 0
    /// True once the thread posted, delivered, registered or removed, in the stream or in the
    /// history it carries; a thread only introduced (say, the one that accepted the viewer) is not.
    public internal(set) var isActive = false
    /// How long the async messages this thread ran had waited in their observers' mailboxes
    /// (enqueue to start; deliveries with target task). Other queued deliveries' waits are in the
    /// log.
    package internal(set) var mailboxWait = LatencyHistogram()
    /// The 99th-percentile mailbox wait, nanoseconds (0 before one was seen).
    public var mailboxWaitP99: UInt64 { mailboxWait.p99 }
    var log: RingBuffer<DeliveryLogEntry>
    /// Stream time of the last activity, for eviction.
    var lastActive: UInt64 = 0

    /// Recent deliveries, oldest first.
    public var recentDeliveries: [DeliveryLogEntry] { log.elements }
    /// Deliveries that fell out of the log.
    public var droppedLogEntries: UInt64 { log.overwritten }

    init(id: UInt64, name: String, systemID: Int32, isMain: Bool, logCapacity: Int) {
        self.id = id
        self.name = name
        self.systemID = systemID
        self.isMain = isMain
        log = RingBuffer(capacity: logCapacity)
    }
}

/// One handler run in a thread's log.
public struct DeliveryLogEntry: Sendable, Hashable {
    /// Stream time the handler started.
    public let start: UInt64
    /// The notification name.
    public let name: String
    /// The post delivered.
    public let postID: UInt64
    /// The registration whose handler ran.
    public let registration: UInt64
    /// The observer's type, or nil for blocks (and unknown registrations).
    public let observerType: String?
    /// How the registration delivers (a typed message kind, a block…); nil when unknown.
    public let registrationKind: TraceRegistrationKind?
    /// The thread that posted.
    public let postingThread: UInt64
    /// The thread that ran the handler.
    public let deliveringThread: UInt64
    /// Queueing delay before the handler started.
    public let wait: UInt64
    /// How long the handler ran.
    public let duration: UInt64
    /// Post depth while it ran: 1 at top level, 2 for a handler of a post made inside a handler.
    public let depth: Int
}
