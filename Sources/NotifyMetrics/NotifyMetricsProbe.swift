public import Metrics
public import NotifyKit

/// A probe that feeds a center's activity to swift-metrics, whose backend (Prometheus,
/// OpenTelemetry, StatsD…) the app chooses: `center.attach(NotifyMetricsProbe())`.
///
/// Per notification name (a typed message counts under its type's name), with the
/// configuration's prefix before each label and dimension `name`:
/// - `posts`, `deliveries`: counters; `handler_duration`: a timer of each handler run;
/// - `registrations`: a meter (swift-metrics' up-and-down gauge) of live registrations;
/// - `removals` (dimension `reason`, see NotifyKit's `ProbeEvent.RemovalReason`) and `dropped_tokens`,
///   registrations whose token was released while they stayed registered (owner-bound ones
///   excepted: they end with their owner by design): counters.
///
/// Registrations that observe every name count under ``NotifyMetricsConfiguration/anyName``.
/// The first ``NotifyMetricsConfiguration/maxNames`` names seen take a label of their own and
/// keep it; every later name folds into ``NotifyMetricsConfiguration/otherName`` for good. A name
/// never moves between labels, so a folded name's registrations raise and lower `other`'s gauge,
/// and no gauge keeps registrations that ended.
///
/// Attached late, the probe counts the live registrations the center reports on attaching (and
/// their dropped tokens) once; when it deinitialises, it takes the registrations it still counts
/// out of the gauges again. Attach one probe per center (registration ids are per center), once:
/// to attach again, make a new probe.
///
/// After a warm-up, a post or delivery finds its name's handles with an atomic load and a compare
/// of two words, takes no lock and allocates nothing of its own.
public final class NotifyMetricsProbe: NotifyProbe, Sendable {
    public let configuration: NotifyMetricsConfiguration
    private let table: NameMetricsTable
    private let cache: NameMetricsCache
    private let ledger = RegistrationLedger()

    /// - Parameters:
    ///   - configuration: The metrics' labels and which are recorded.
    ///   - factory: The backend; by default the one given to `MetricsSystem.bootstrap`.
    public init(
        configuration: NotifyMetricsConfiguration = NotifyMetricsConfiguration(),
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.configuration = configuration
        table = NameMetricsTable(configuration: configuration, factory: factory)
        cache = NameMetricsCache(table: table)
    }

    /// Takes the registrations still counted out of the gauges: backends share a series between
    /// probes with the same labels, and a probe attached later counts the live ones again.
    deinit {
        for entry in ledger.removeAll() { entry.metrics.registrations.decrement() }
    }

    public func receive(_ event: ProbeEvent) {
        switch event.kind {
        case .posted(let post):
            cache.withMetrics(for: post.name, thread: event.thread) { $0.posts.increment() }
        case .delivered(let delivery):
            cache.withMetrics(for: delivery.name, thread: event.thread) { metrics in
                metrics.deliveries.increment()
                metrics.handlerDuration.recordNanoseconds(Int64(clamping: delivery.duration))
            }
        case .registered(let registration):
            registered(registration)
        case .removed(let id, let reason, _):
            guard let entry = ledger.remove(id) else { return }
            entry.metrics.registrations.decrement()
            entry.metrics.removal(reason).increment()
        case .tokenDropped(let id):
            ledger.dropToken(id)?.droppedTokens.increment()
        case .removeMissed, .queue, .checkpoint, .messageEnqueued, .objectDead, .queueMerged:
            return
        }
    }

    private func registered(_ registration: ProbeEvent.Registration) {
        let metrics = registration.name.map(table.metrics(for:)) ?? table.anyName
        let countsDroppedToken = registration.kind != .ownerBound
        let entry = RegistrationLedger.Entry(
            metrics: metrics, countsDroppedToken: countsDroppedToken, tokenDropped: registration.tokenDropped)
        guard ledger.add(registration.id, entry) else { return }
        metrics.registrations.increment()
        // A snapshot reports a token dropped before the probe attached: counted once, here.
        if registration.tokenDropped && countsDroppedToken { metrics.droppedTokens.increment() }
    }

    /// Registrations the probe counts as live.
    public var liveRegistrations: Int { ledger.count }

    /// Names that have a label of their own (at most ``NotifyMetricsConfiguration/maxNames``).
    public var labelledNames: Int { table.labelledNames }
}
