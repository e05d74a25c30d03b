public import NotifyWire

/// One row of the per-name table: a notification name (or the `*` wildcard) and everything done
/// with it.
///
/// Why deliveries count by *notification* name: a wildcard observer's run for `cartDidChange` is
/// work done for `cartDidChange`, so the named rows add up to the total. The `*` row is a view of
/// the wildcard observers: its deliveries and handler time also appear under the posted names,
/// and its ``posts`` is every post (a wildcard could see each one).
public struct NameRow: Sendable, Hashable {
    /// The name; `"*"` for the wildcard row.
    public let name: String
    /// True for the wildcard row.
    public let isWildcard: Bool
    /// Live registrations for this name.
    public internal(set) var liveObservers: Int = 0
    /// Posts of this name.
    public internal(set) var posts: UInt64 = 0
    /// Handler runs for posts of this name.
    public internal(set) var deliveries: UInt64 = 0
    /// Posts that matched no registration (wildcards included).
    public internal(set) var postsWithNoObserver: UInt64 = 0
    /// Handler durations.
    package internal(set) var handlerTime = LatencyHistogram()
    /// Threads that posted the name.
    package internal(set) var postingThreads: ThreadIDSet
    /// Threads whose handlers ran for it.
    package internal(set) var handlingThreads: ThreadIDSet
    /// The mean and 99th-percentile handler run for this name, nanoseconds (0 before one ran).
    public var handlerMean: UInt64 { handlerTime.mean }
    public var handlerP99: UInt64 { handlerTime.p99 }
    /// Ids of the threads that posted the name (as the stream numbers them), and of those whose handlers
    /// ran for it, as far as the row keeps them.
    public var postingThreadIDs: [UInt64] { postingThreads.ids }
    public var handlingThreadIDs: [UInt64] { handlingThreads.ids }
    /// Stream time of the last post.
    public internal(set) var lastPostAt: UInt64?
    /// Thread of the last post.
    public internal(set) var lastPostThread: UInt64?
    /// Whether any registration for it was ever seen (R9 looks for near names among these).
    public internal(set) var everRegistered = false
    /// The name is a typed message's type name, not a notification name.
    public internal(set) var isMessage = false
    /// Main-actor or async, once a post or an observer said; nil for notifications, and for a
    /// message type seen only through message sequences so far.
    public internal(set) var messageKind: TraceMessageKind?

    // Rule bookkeeping.
    /// Stream time since which the name has had live observers without a break (R10).
    var liveSince: UInt64?
    /// Checkpoints passed while observed and never posted (R10).
    var checkpointsWaiting = 0
    /// The centers the name was posted to, in a stream of several (R10 on another center).
    var postedCenters = CenterSet()
    var postedOnMain = false
    var postedOffMain = false
    var declaresMainOnly = false
    /// The last few distinct posting callsites, newest last (R2(b) evidence).
    var recentPosters: [UInt64] = []
    /// Stream time of the last use, for eviction.
    var lastUsed: UInt64 = 0
    /// The newest post: its ordinal heads the name's chain in the post history, and the rest
    /// outlives the ring.
    var newestPost = PostHistory.NewestPost()
    /// False for a freed slot of the table.
    var occupied = true

    /// What a freed slot holds.
    static let vacant: NameRow = {
        var row = NameRow(name: "", isWildcard: false, threadCapacity: 0)
        row.occupied = false
        return row
    }()

    /// Mean handler time.
    public var averageHandlerTime: UInt64 { handlerTime.mean }
    /// 99th-percentile handler time (histogram bound, within 12.5 %).
    public var p99HandlerTime: UInt64 { handlerTime.p99 }
    /// Slowest handler run.
    public var maximumHandlerTime: UInt64 { handlerTime.max }

    init(name: String, isWildcard: Bool, threadCapacity: Int) {
        self.name = name
        self.isWildcard = isWildcard
        postingThreads = ThreadIDSet(capacity: threadCapacity)
        handlingThreads = ThreadIDSet(capacity: threadCapacity)
    }
}
