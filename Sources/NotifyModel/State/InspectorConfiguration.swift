/// The model's windows and memory bounds, and the leak rules' thresholds.
///
/// Why configurable: a phone-sized app and a server differ by orders of magnitude in names,
/// threads and registrations; the defaults suit an interactive app and keep the model under a
/// few tens of megabytes whatever the stream does.
public struct InspectorConfiguration: Sendable, Hashable {
    /// Width of one rate bucket (default 1 s).
    public var rateBucketWidth: UInt64 = 1_000_000_000
    /// Complete buckets averaged into posts/s and deliveries/s (default 1: the last second).
    public var rateWindowBuckets: Int = 1
    /// Complete buckets kept for the sparklines (default 60).
    public var rateHistoryLength: Int = 60
    /// Entries in each thread's delivery log (default 128).
    public var threadLogCapacity: Int = 128
    /// Threads kept per name as posters or handlers (default 32).
    public var threadsPerName: Int = 32
    /// How long a removed registration stays in the observer table (default 60 s).
    public var retireRemovedAfter: UInt64 = 60_000_000_000
    /// Removed registrations kept at most, oldest retired first (default 4,096).
    public var maximumRemovedRegistrations: Int = 4_096
    /// Live registrations tracked at most; beyond, new ones are only counted (default 200,000).
    public var maximumLiveRegistrations: Int = 200_000
    /// Names kept at most; beyond, the least recently used idle names are forgotten (default 4,096).
    public var maximumNames: Int = 4_096
    /// Threads kept at most; beyond, the least recently active are forgotten (default 512).
    public var maximumThreads: Int = 512
    /// Object definitions kept at most; beyond, only those tracked registrations use are kept
    /// (default 8,192). Every posted sender is introduced as an object, so this is what keeps an
    /// endless stream of senders bounded.
    public var maximumObjects: Int = 8_192
    /// Owners R2(b) remembers as having stopped observing a name (default 4,096).
    public var maximumRemovalGaps: Int = 4_096
    /// Findings kept at most; beyond, the oldest resolved (then the oldest info) are dropped
    /// (default 1,024).
    public var maximumFindings: Int = 1_024
    /// The post history's bound: the posts, and the deliveries and enqueues, it keeps of all names
    /// together, rounded up to a power of two (default 65,536; about 17 MB when full). Explanations,
    /// cascades and the rules R7 and R8 read it. A name's posts older than that are summed up by
    /// its newest post's time, id and site.
    public var explainLinkCapacity: Int = 65_536
    /// Posts of each name an explanation lists, the newest among those the history keeps (default
    /// 32); older ones are counted, not explained. Costs no memory: it bounds a read.
    public var explainPostsPerName: Int = 32
    /// The leak rules' thresholds.
    public var rules = LeakRuleConfiguration()

    /// The defaults.
    public init() {}
}
