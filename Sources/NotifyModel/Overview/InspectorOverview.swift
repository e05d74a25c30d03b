/// The header of the dashboard: rates, counts and the stream's health, computed from the state.
///
/// Why a separate value: the header renders many times a second from a snapshot; computing it
/// on demand keeps the fold's hot path free of aggregation.
public struct InspectorOverview: Sendable, Hashable {
    /// Posts per second over the rate window.
    public var postsPerSecond: Double
    /// Deliveries per second over the rate window.
    public var deliveriesPerSecond: Double
    /// Posts per rate bucket, oldest first: the sparkline.
    public var postHistory: [UInt64]
    /// Deliveries per rate bucket, oldest first.
    public var deliveryHistory: [UInt64]
    /// The slowest handler run per rate bucket in nanoseconds, oldest first (0: none ran).
    public var slowestHandlerHistory: [UInt64]
    /// Live registrations at the end of each rate bucket, oldest first.
    public var observerHistory: [UInt64]
    /// Names at the end of each rate bucket, oldest first.
    public var nameHistory: [UInt64]
    /// Threads at the end of each rate bucket, oldest first.
    public var threadHistory: [UInt64]
    /// Open findings at the end of each rate bucket, oldest first.
    public var findingHistory: [UInt64]
    /// Live registrations.
    public var liveRegistrations: Int
    /// Names in the table (the `*` row excluded).
    public var names: Int
    /// Threads in the table.
    public var threads: Int
    /// Open findings per severity.
    public var openFindings: [LeakSeverity: Int]
    /// Events lost, as gap lines reported them.
    public var eventsLost: UInt64
    /// Gap lines seen.
    public var gaps: UInt64
    /// Live, ended, or replaying and where.
    public var stream: StreamState
    /// Totals since the model started.
    public var totals: InspectorTotals
    /// Latest stream time seen.
    public var now: UInt64
    /// What was left out to stay bounded.
    public var detailLoss: DetailLoss
    /// Viewers the producer streamed to, as its latest clock line said; nil until one said.
    public var viewers: Int? = nil
}
