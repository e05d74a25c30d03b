public import NotifyWire

/// Everything the dashboard shows, as a pure fold of the trace: apply events, read the tables.
///
/// Why a value: the fold reads no clock and does no I/O, so tests can check it to the last number
/// and a replay reproduces a live session exactly. Its clock is the events' clock: every rate,
/// level sample, retirement and checkpoint happens on a fixed grid of event time, so the state
/// after an event is the same however the events were batched. Copying is cheap (every table is a
/// copy-on-write collection), so a paused view keeps a snapshot while the fold goes on.
///
/// ```swift
/// var state = InspectorState()
/// while case .event(let event) = reader.next() {
///     state.apply(event)
/// }
/// print(state.overview.postsPerSecond, state.findings.filter(\.isOpen))
/// ```
///
/// Memory is bounded for an endless stream: logs are rings, histories are capped, removed
/// registrations retire, names, threads and objects have caps, and ``detailLoss`` says what was
/// left out.
public struct InspectorState: Sendable {
    /// The windows, caps and rule thresholds this state was made with.
    public let configuration: InspectorConfiguration
    /// The stream's header, once seen.
    public internal(set) var header: TraceHeader?
    /// True when the stream carries several centers (its header lists them), so the views say
    /// which one each registration and post is on.
    public internal(set) var carriesSeveralCenters = false
    /// The labels of the stream's centers by index: the header's, then those `center` lines introduced.
    var centerLabels: [String] = []
    /// Live wildcard registrations by center index, when the stream carries several centers: the
    /// `*` row counts only posts to a center where one could hear them.
    var liveWildcardsByCenter: [UInt32: Int] = [:]
    /// Posts to a center while a wildcard observer was live there (history's posts included): the
    /// `*` row's posts once the stream carries several centers.
    var wildcardAudiblePosts: UInt64 = 0
    /// Live, ended, or replaying.
    public internal(set) var stream: StreamState = .waiting
    /// Counts since the start.
    public internal(set) var totals = InspectorTotals()
    /// Latest stream time seen in an event (or a ``tick(now:)``).
    public internal(set) var now: UInt64 = 0
    /// Events lost, from gap lines.
    public internal(set) var eventsLost: UInt64 = 0
    /// The part of ``eventsLost`` this viewer lost by reading too slowly (`viewer-behind` gaps);
    /// the rest the app dropped before any viewer could read them.
    public internal(set) var eventsLostBehind: UInt64 = 0
    /// Gap lines seen.
    public internal(set) var gaps: UInt64 = 0
    /// True once the stream brought history: posts or deliveries made before it began (or not
    /// sent as events), counted in the tables' totals. Figures only events can give (handler
    /// durations and latencies, the slowest handler) then cover the time since the stream began.
    public internal(set) var beganLate = false
    /// Viewers the producer streamed to (this one included), as its latest clock line said; nil
    /// until one said (producers before format 1.3 never do).
    public internal(set) var viewers: Int?
    /// Posts per second and their history.
    package internal(set) var postRate: RateWindow
    /// Deliveries per second and their history.
    package internal(set) var deliveryRate: RateWindow
    /// The slowest handler run per rate bucket (nanoseconds): the header's sparkline.
    package internal(set) var slowestHandlerWindow: RateWindow
    /// Live registrations, names, threads and open findings, sampled each tick: the header's
    /// sparklines of counts.
    package internal(set) var levelWindows: LevelWindows

    var loss = DetailLoss()
    /// Stream time at which ``advanceClock(to:)`` has work due (0: before the first timed event).
    var nextClockWork: UInt64 = 0
    /// End of the open rate bucket on the clock's grid (0: before the first timed event).
    var nextBucket: UInt64 = 0
    var definitions: DefinitionTable

    // Names: slot 0 is the `*` row; freed slots are reused.
    var nameSlots: [String: Int] = [:]
    /// Hints in front of ``nameSlots``, checked against ``nameRows``.
    var nameSlotCache = NameSlotCache()
    var nameRows: [NameRow]
    var freeNameSlots: [Int] = []
    /// Trim names when this many are kept; raised when a trim frees little.
    var nameTrimAt: Int

    // Registrations by slot, with a free list; removed rows wait in `retiring` (oldest first).
    var registrationSlots = IDTable()
    var rows: [ObserverRow] = []
    var freeRowSlots: [Int] = []
    var retiring: [UInt64] = []
    var retiringHead = 0
    /// Registrations live now.
    public internal(set) var liveRegistrations = 0

    // Threads by slot.
    var threadSlots = IDTable()
    var threadRows: [ThreadRow] = []
    /// How many tracked threads carry each name, so a view can tell same-named threads apart.
    var threadNameCounts: [String: Int] = [:]
    /// The thread looked up last and its row: nil before any (every id, 2^64 − 1 too, is a thread's).
    var lastThreadID: UInt64?
    var lastThreadSlot = 0
    /// Threads whose ``ThreadRow/isActive`` is set: the ones the tables list.
    var activeThreads = 0

    /// Every kept post with its links, nested posts and name chain: what explanations, cascades
    /// and the rules R7 and R8 read.
    var history: PostHistory
    /// Filter deaths, queue merges and coalesces: what explanations read besides the history.
    var explainFacts = ExplainFacts()
    var findingStore: LeakFindingStore
    var ruleState = RuleState()
    var missedRemovals: RingBuffer<MissedRemoval> = RingBuffer(capacity: 32)
    /// The smallest handler duration R7 grades (`.max` when off): one compare on the hot path.
    let slowHandlerFloor: UInt64
    /// The smallest post total R7 grades (`.max` when off).
    let slowPostFloor: UInt64

    /// Creates an empty state.
    public init(configuration: InspectorConfiguration = InspectorConfiguration()) {
        self.configuration = configuration
        postRate = RateWindow(
            bucketWidth: configuration.rateBucketWidth, windowBuckets: configuration.rateWindowBuckets,
            historyLength: configuration.rateHistoryLength)
        deliveryRate = postRate
        slowestHandlerWindow = postRate
        levelWindows = LevelWindows(observers: postRate, names: postRate, threads: postRate, findings: postRate)
        definitions = DefinitionTable(maximumObjects: configuration.maximumObjects)
        nameTrimAt = configuration.maximumNames
        nameRows = [NameRow(name: "*", isWildcard: true, threadCapacity: configuration.threadsPerName)]
        history = PostHistory(capacity: configuration.explainLinkCapacity)
        findingStore = LeakFindingStore(maximum: configuration.maximumFindings)
        let rules = configuration.rules
        slowHandlerFloor = rules.runs(.slowHandler) ? rules.slowHandler.lowest : .max
        slowPostFloor = rules.runs(.slowHandler) ? rules.slowPost.lowest : .max
    }

    /// Sets what the transport knows: connected, disconnected, or replaying at a position.
    public mutating func setStream(_ state: StreamState) {
        stream = state
    }

    // MARK: Reading

    /// The header figures, computed now.
    public var overview: InspectorOverview {
        let open = openFindingCounts
        return InspectorOverview(
            postsPerSecond: postRate.perSecond, deliveriesPerSecond: deliveryRate.perSecond,
            postHistory: postRate.recentBuckets, deliveryHistory: deliveryRate.recentBuckets,
            slowestHandlerHistory: slowestHandlerWindow.recentBuckets,
            observerHistory: levelWindows.observers.recentBuckets, nameHistory: levelWindows.names.recentBuckets,
            threadHistory: levelWindows.threads.recentBuckets, findingHistory: levelWindows.findings.recentBuckets,
            liveRegistrations: liveRegistrations, names: nameSlots.count, threads: activeThreads,
            openFindings: open, eventsLost: eventsLost, gaps: gaps, stream: stream, totals: totals, now: now,
            detailLoss: detailLoss, viewers: viewers)
    }

    /// Open findings per severity.
    var openFindingCounts: [LeakSeverity: Int] {
        var open: [LeakSeverity: Int] = [:]
        for finding in findingStore.byKey.values where finding.isOpen { open[finding.severity, default: 0] += 1 }
        return open
    }

    /// What was left out to stay bounded.
    public var detailLoss: DetailLoss {
        var loss = loss
        loss.forgottenObjects = definitions.forgottenObjects
        loss.droppedFindings = findingStore.dropped
        loss.overwrittenLogEntries += threadRows.reduce(0) { $0 + $1.log.overwritten }
        return loss
    }

    /// The per-name table: the `*` row first, then names alphabetically.
    public var names: [NameRow] {
        let named = nameRows.dropFirst().filter(\.occupied).sorted { $0.name < $1.name }
        return [nameRows[0]] + named
    }

    /// The history's posts and deliveries of names the app could not keep apart, as one row named
    /// ``otherNamesLabel``; nil when there were none.
    public var otherNames: NameRow? {
        guard totals.otherNamePosts > 0 || totals.otherNameDeliveries > 0 else { return nil }
        var row = NameRow(name: Self.otherNamesLabel, isWildcard: false, threadCapacity: 0)
        row.posts = totals.otherNamePosts
        row.deliveries = totals.otherNameDeliveries
        return row
    }

    /// The name of the ``otherNames`` row.
    public static let otherNamesLabel = "(other names)"

    /// One name's row; `"*"` is the wildcard row (a name literally spelled `*` is not reachable here).
    public func name(_ name: String) -> NameRow? {
        if name == "*" { return nameRows[0] }
        return nameSlots[name].map { nameRows[$0] }
    }

    /// A name's observers (`"*"`: the wildcard observers), live and recently removed, by id.
    public func observers(of name: String) -> [ObserverRow] {
        let wanted: String? = name == "*" ? nil : name
        return rows.filter { $0.occupied && $0.name == wanted }.sorted { $0.id < $1.id }
    }

    /// Every tracked registration, live and recently removed, by id.
    public var registrations: [ObserverRow] {
        // Sorting positions, then copying each row once: rows are large, and a dashboard frame
        // asks for all of them.
        var positions = rows.indices.filter { rows[$0].occupied }
        positions.sort { rows[$0].id < rows[$1].id }
        return positions.map { rows[$0] }
    }

    /// One registration, while tracked.
    public func registration(_ id: UInt64) -> ObserverRow? {
        registrationSlots[id].map { rows[$0] }
    }

    /// The per-thread table, by id: the threads that posted, delivered, registered or removed.
    public var threads: [ThreadRow] { threadRows.filter(\.isActive).sorted { $0.id < $1.id } }

    /// One thread's row, whether or not it was active (for its name).
    public func thread(_ id: UInt64) -> ThreadRow? {
        threadSlots[id].map { threadRows[$0] }
    }

    /// Every finding (open and resolved), oldest first.
    public var findings: [LeakFinding] {
        guard carriesSeveralCenters else { return findingStore.all }
        return findingStore.all.map(withCenter)
    }

    /// `finding` with the label of the center it is about: its first registration's (kept when it
    /// was added), else its key's (R5 keys its registrations' center); nil when neither says.
    func withCenter(_ finding: LeakFinding) -> LeakFinding {
        var finding = finding
        var index = finding.evidence.centerIndex
        if index == nil, case .nameAtCallsite(_, _, let center) = finding.key.subject {
            index = center
        }
        finding.center = index.map(centerLabel)
        return finding
    }

    /// One finding by key.
    public func finding(_ key: LeakFindingKey) -> LeakFinding? {
        guard let finding = findingStore[key] else { return nil }
        return carriesSeveralCenters ? withCenter(finding) : finding
    }

    /// Recent `removeObserver` calls that ended nothing, oldest first (at most 32).
    public var recentMissedRemovals: [MissedRemoval] { missedRemovals.elements }

    /// A callsite by trace id, as definitions described it.
    public func callsite(_ id: UInt64) -> CallsiteInfo { definitions.callsite(id) }
}
