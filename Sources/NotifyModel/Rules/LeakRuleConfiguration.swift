/// Thresholds and switches of the leak rules R1–R11, with their defaults.
///
/// Why a value: the dashboard, batch mode and tests each want different sensitivity (a server has
/// no 16 ms frame; a test wants a 1 ms checkpoint), and the model must stay a pure function of the
/// events and this configuration.
///
/// ```swift
/// var rules = LeakRuleConfiguration()
/// rules.slowHandler = SeverityThresholds(info: nil, warning: 100_000_000, error: 250_000_000)
/// rules.suppressions.append(.name(.unheardPost, "appDidBecomeActive"))
/// ```
public struct LeakRuleConfiguration: Sendable, Hashable {
    /// Rules that run; the others never raise findings.
    public var enabledRules: Set<LeakRule> = Set(LeakRule.allCases) {
        didSet { enabledMask = enabledRules.reduce(0) { $0 | $1.bit } }
    }
    /// ``enabledRules`` as bits, for ``runs(_:)``, which the rules ask per event.
    private var enabledMask: UInt16 = LeakRule.allCases.reduce(0) { $0 | $1.bit }
    /// Findings never raised for these keys: the escape hatch every leak tool needs.
    public var suppressions: [LeakSuppression] = []

    /// Stream time between automatic checkpoints, which R6 and R10 count: stream time takes one
    /// at every multiple of the interval (default 5 s), whatever the events' batching.
    /// ``InspectorState/checkpoint(now:)`` takes one on demand.
    public var checkpointInterval: UInt64 = 5_000_000_000

    /// R2(b): how long an owner's gap in observing a name is remembered, waiting for it to
    /// re-register (default 5 min).
    public var prematureRemovalWindow: UInt64 = 300_000_000_000

    /// R3: also report owner-bound registrations purged when their owner died. Off by default:
    /// ending with the owner is that API's contract and the documented fix, not a bug.
    public var reportsOwnerBoundPurges = false

    /// R6: consecutive checkpoints over which a (name, callsite) count must strictly increase
    /// (default G = 3).
    public var growthCheckpoints = 3
    /// R6: the smallest count that can be growth (default F = 4).
    public var growthMinimum = 4
    /// R6: a count above this is an error (default 100).
    public var growthErrorCount = 100
    /// R6: live registrations allowed per name (LifetimeTracker's `maxCount`); past it, a
    /// warning; past ten times it, an error.
    public var registrationBudgets: [String: Int] = [:]

    /// R7: one handler run (defaults 16 ms info, 100 ms warning, 250 ms error).
    public var slowHandler = SeverityThresholds(info: 16_000_000, warning: 100_000_000, error: 250_000_000)
    /// R7: the handlers that block one post, summed (same defaults).
    public var slowPost = SeverityThresholds(info: 16_000_000, warning: 100_000_000, error: 250_000_000)

    /// R9 and R10: names within this edit distance are near, so likely a typo (default 2).
    public var nearNameDistance = 2
    /// R9: names legitimately posted with nobody listening (broadcasts); never reported.
    public var unheardAllowlist: Set<String> = []
    /// R9: posts in a row with no observer, after a name's observers all went away, that make it
    /// look abandoned (default 50).
    public var unheardAbandonedPosts = 50
    /// R9: heard posts in a row that resolve an open finding (default 10), so observer churn does
    /// not close and reopen it.
    public var unheardResolvedPosts = 10

    /// R10: checkpoints a registration waits, its name never posted, before it is reported
    /// (default C = 3).
    public var neverPostedCheckpoints = 3
    /// R10: or this much stream time (default D = 30 s).
    public var neverPostedAfter: UInt64 = 30_000_000_000

    /// The document's defaults.
    public init() {}

    /// Whether `rule` is enabled.
    @inline(__always)
    func runs(_ rule: LeakRule) -> Bool { enabledMask & rule.bit != 0 }
}

/// A key under which findings are never raised.
///
/// Why: caches and app-lifetime services legitimately look like leaks (MLeaksFinder's
/// `willDealloc → NO`, LifetimeTracker's budgets); the user must be able to say so once.
public enum LeakSuppression: Sendable, Hashable {
    /// One rule at one source location (`#fileID` and line).
    case callsite(LeakRule, file: String, line: UInt)
    /// One rule for one notification name (`"*"` for wildcard registrations).
    case name(LeakRule, String)
    /// An owner type that lives for the whole app (an app delegate, a service): R4 is off for it.
    case immortalType(String)
}
