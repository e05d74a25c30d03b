import Foundation

/// An observer that never runs for a post: the mistakes an explanation ("why didn't my observer
/// fire?") answers, most of which raise no warning. Each names the reason the explanation must give.
package enum SilentBug: String, CaseIterable, Sendable, Codable {
    /// The observer filters on one account; the app posts another instance of the same type.
    case objectDiffers = "object-differs"
    /// The observer's name and the posted name differ by one letter.
    case nameDiffers = "name-differs"
    /// The observer registers after the only post of its name.
    case registeredAfter = "registered-after"
    /// The observer is cancelled just before the post it waits for.
    case removedBefore = "removed-before"
    /// The observer's owner is released before the post.
    case ownerDead = "owner-dead"
    /// The object the observer filters on is released; a new one of its type posts.
    case objectDead = "object-dead"
    /// Four progress updates go through a notification queue, which merges three of them away: the
    /// observer runs once, for the one post, which carries the three merged enqueues.
    case coalesced
    /// The observer registered on the sync service's center; the app posts to its own. Planted
    /// only when the run inspects both centers (``DemoContext/syncCenter``).
    case otherCenter = "other-center"

    /// The explanation's reason code for the observer and the post: the bug's own name, except
    /// for coalesced enqueues, whose one post the observer does receive.
    package var reason: String { self == .coalesced ? "delivered" : rawValue }

    /// One line on what the app does wrong.
    package var summary: String {
        switch self {
        case .objectDiffers: "an account panel filters AccountDidLoad on its account; the app posts another Account"
        case .nameDiffers: "a sync badge observes ProfileDidSync; the sync posts \"ProfileDidSynk\""
        case .registeredAfter: "the tips controller observes OnboardingDidFinish after its only post"
        case .removedBefore: "the library screen cancels its LibraryDidRefresh observer just before the post"
        case .ownerDead: "a receipt view observing PurchaseDidComplete is released before the post"
        case .objectDead: "a banner's SubscriptionDidRenew filter object is released; a new subscription posts"
        case .coalesced: "an export's four ExportDidProgress enqueues are coalesced by its queue into one post"
        case .otherCenter:
            "a settings panel observes SettingsDidChange on the sync service's center; the app posts to its own"
        }
    }
}

/// One silent bug as the demo planted it: the post its observer missed and where it registered.
package struct SilentBugTruth: Codable, Sendable, Equatable {
    /// The bug's name, equal to the expected reason code.
    package var bug: String
    /// The name of the post the observer missed (for `name-differs`, the misspelt name posted).
    package var name: String
    /// The observer's registration site as the trace names it, `File.swift:LINE`.
    package var site: String
    /// The reason `notifytop explain` must give for that observer and that post.
    package var reason: String
    /// Text the explanation's detail must contain: the cancelling call's site for `removed-before`,
    /// that the filter died (and, when the new object took its address, that it did) for
    /// `object-dead`, both centers' labels for `other-center`. Absent when nothing more is expected.
    package var evidence: [String]?
    /// For `coalesced`: how many enqueues the queue merged into the post.
    package var coalesced: Int?
    /// For `coalesced`: the merged enqueues' sites, `File.swift:LINE`, one per enqueue.
    package var coalescedSites: [String]?
}

/// The silent bugs planted so far, in order.
final class SilentBugLog: @unchecked Sendable {  // `lock` guards `entries`
    private let lock = NSLock()
    private var entries: [SilentBugTruth] = []

    /// Records `bug`, whose observer registered at `site` and misses the post of `posted`.
    func record(
        _ bug: SilentBug, posted: DemoName, site: DemoSite, evidence: [String]? = nil, coalesced: [DemoSite]? = nil
    ) {
        let entry = SilentBugTruth(
            bug: bug.rawValue, name: posted.string, site: site.description, reason: bug.reason, evidence: evidence,
            coalesced: coalesced?.count, coalescedSites: coalesced?.map(\.description))
        lock.withLock { entries.append(entry) }
    }

    /// The entries, in planting order.
    var snapshot: [SilentBugTruth] { lock.withLock { entries } }
}
