/// One warning of the leak rules: what is wrong, how sure, the evidence, and the fix.
///
/// Why one finding per root cause: a leaking screen that registered a hundred times is one bug,
/// so findings are keyed by ``LeakFindingKey`` (rule plus callsite, name or owner) and later
/// occurrences update the same finding. When the condition clears the finding is *resolved*
/// (kept, with the time), and re-opened if it comes back.
public struct LeakFinding: Sendable, Hashable, Identifiable {
    /// The root cause this finding stands for; unique among findings.
    public var key: LeakFindingKey
    /// How sure and how bad, now (rules escalate it as evidence grows).
    public var severity: LeakSeverity
    /// One line saying what happened, with the primary key spelled out.
    public var summary: String
    /// The facts behind it.
    public var evidence: LeakEvidence
    /// Stream time of the first occurrence.
    public var firstSeen: UInt64
    /// Stream time of the latest occurrence or update.
    public var lastSeen: UInt64
    /// How many times the rule fired for this key.
    public var occurrences: UInt64
    /// Stream time the condition cleared; nil while open.
    public var resolvedAt: UInt64?
    /// Order of creation, for a stable listing.
    public var ordinal: UInt64
    /// The label of the center it is about when the stream carries several centers (its
    /// registration's, or its key's); nil in a stream of one center.
    public internal(set) var center: String?

    /// The key; findings are identified by their root cause.
    public var id: LeakFindingKey { key }
    /// The rule that raised it.
    public var rule: LeakRule { key.rule }
    /// The rule's one-line fix.
    public var fix: String { key.rule.fix }
    /// True until the condition clears.
    public var isOpen: Bool { resolvedAt == nil }
    /// How long the finding stayed open ("resolved after Δ"); nil while open.
    public var resolvedAfter: UInt64? { resolvedAt.map { $0 >= firstSeen ? $0 - firstSeen : 0 } }
}

/// The root cause a finding stands for: a rule and what it is about.
///
/// Why explicit: de-duplication and suppression work on these keys; every rule's key is
/// (rule, callsite) or (rule, name).
public struct LeakFindingKey: Sendable, Hashable, CustomStringConvertible {
    /// The rule.
    public var rule: LeakRule
    /// What the finding is about.
    public var subject: LeakSubject

    /// Creates a key.
    public init(rule: LeakRule, subject: LeakSubject) {
        self.rule = rule
        self.subject = subject
    }

    /// `"R5 site#12 \"cartDidChange\""`.
    public var description: String { "\(rule.code) \(subject)" }
}

/// What a finding is about. Callsites and objects are the trace's definition ids.
public enum LeakSubject: Sendable, Hashable, CustomStringConvertible {
    /// A registering call (R1, R2(a), R7 handler, R8 declared requirement).
    case callsite(UInt64)
    /// A dead participant of registrations made at a callsite (R3); `sender` tells the object
    /// filter from the observer.
    case participant(callsite: UInt64, sender: Bool)
    /// A name as registered or posted at a callsite (R2(b), R5, R6, R7 post total); `"*"` for wildcard.
    /// `center` tells apart registrations on the centers of one stream (R5); 0 for the rest.
    case nameAtCallsite(String, callsite: UInt64, center: UInt32 = 0)
    /// A notification name (R6 budget, R8 mixed threads, R9, R10).
    case name(String)
    /// An observer object (R4).
    case observer(UInt64)

    /// Short text for lists and test failures.
    public var description: String {
        switch self {
        case .callsite(let site): "site#\(site)"
        case .participant(let site, let sender): "\(sender ? "sender" : "observer")@site#\(site)"
        case .nameAtCallsite(let name, let site, let center):
            "\"\(name)\"@site#\(site)" + (center == 0 ? "" : " center#\(center)")
        case .name(let name): "\"\(name)\""
        case .observer(let object): "obj#\(object)"
        }
    }
}
