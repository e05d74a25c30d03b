/// The facts behind a finding, as data: the detail pane shows them and tests assert on them.
///
/// Why one struct for every rule: the dashboard renders evidence generically, and each rule fills
/// the fields it needs (documented per field); unused fields stay empty.
public struct LeakEvidence: Sendable, Hashable {
    /// The notification name (`"*"` for wildcard registrations).
    public var name: String?
    /// The primary callsite: the registering call, or the posting call for post-side rules.
    public var callsite: CallsiteInfo?
    /// The observer (target or owner), when known.
    public var observer: ObjectInfo?
    /// The object filter, when the registration had one.
    public var objectFilter: ObjectInfo?
    /// Registration ids involved, most recent last (at most 16 kept).
    public var registrations: [UInt64] = []
    /// The center of the first registration added, kept from then on: its row may retire, and the
    /// kept ids move on, but what the finding is about does not.
    var centerIndex: UInt32?
    /// The rule's main count. R1: registrations orphaned; R2: posts missed (b) or registrations
    /// ended unused (a); R3: registrations found dead; R4: strong registrations seen; R5: duplicates
    /// seen at once (max); R6: live registrations now; R7: slow runs; R8: violations; R9: unheard
    /// posts; R10: checkpoints waited.
    public var count: UInt64 = 0
    /// What is still live. R1: orphaned registrations still registered; R4: k, the owner's live
    /// self-capturing registrations; R5: duplicate groups still duplicated.
    public var liveCount: Int = 0
    /// R1: deliveries after the token was dropped; R3: deliveries before death.
    public var deliveriesAfter: UInt64 = 0
    /// R5: the most handlers one post ran from the duplicated key.
    public var fanOut: Int = 0
    /// R6: live registrations at each recent checkpoint, oldest first ("2 → 3 → 4 → 5").
    public var series: [Int] = []
    /// R7: the slowest run or post total; R2(a) and R10: how long the registration lived or waited.
    public var duration: UInt64?
    /// R7: durations of the slow runs, for p50/p95.
    package var durations: LatencyHistogram?
    /// R7: the 99th-percentile slow run, nanoseconds.
    public var durationP99: UInt64? { durations?.p99 }
    /// Other callsites: R4 every self-capturing registration, R5 every registering call of the
    /// duplicated group, R7 and R8 the posters, R9 the posters, R2(b) the re-registration, R1
    /// missed `removeObserver` calls.
    public var relatedCallsites: [CallsiteInfo] = []
    /// Threads involved: R7 and R8 posting threads, R9 posting threads.
    public var threads: [UInt64] = []
    /// R7, R8: whether the (latest) posting thread was the main thread.
    public var postingThreadIsMain: Bool?
    /// R7: observers the post reached.
    public var observersInPost: Int?
    /// R9, R10: the nearest registered (R9, typo case only) or posted (R10) name.
    public var nearestName: String?
    /// Edit distance to ``nearestName``.
    public var nearestDistance: Int?
    /// R10: posts seen in the whole session (a quiet session makes R10 noise).
    public var sessionPosts: UInt64?
    /// R4: other rules' findings folded into this one (R1 dropped tokens, R5 duplicates).
    public var foldedRules: [LeakRule] = []
    /// One extra line: the variant (dead sender, fallback key, post total) or how it was found.
    public var detail: String = ""

    /// Empty evidence.
    public init() {}

    mutating func addRegistration(_ id: UInt64, center: UInt32) {
        if centerIndex == nil { centerIndex = center }
        if registrations.last == id { return }
        registrations.removeAll { $0 == id }
        registrations.append(id)
        if registrations.count > 16 { registrations.removeFirst() }
    }

    mutating func addRelated(_ site: CallsiteInfo?) {
        guard let site, !relatedCallsites.contains(site), relatedCallsites.count < 16 else { return }
        relatedCallsites.append(site)
    }

    mutating func addThread(_ id: UInt64) {
        guard !threads.contains(id), threads.count < 16 else { return }
        threads.append(id)
    }

    mutating func fold(_ rule: LeakRule) {
        if !foldedRules.contains(rule) { foldedRules.append(rule) }
    }
}
