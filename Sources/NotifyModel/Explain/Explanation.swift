/// Why a registration did or did not run for a post.
public enum ExplanationReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Its handler ran for the post.
    case delivered
    /// It is on another center of the stream than the one posted to.
    case otherCenter = "other-center"
    /// It filters on another object than the one posted.
    case objectDiffers = "object-differs"
    /// It observes a near name: a typo, or a difference in case.
    case nameDiffers = "name-differs"
    /// It began after the post.
    case registeredAfter = "registered-after"
    /// It was removed (or cancelled through its token) before the post.
    case removedBefore = "removed-before"
    /// Its owner died before the post, which ended it.
    case ownerDead = "owner-dead"
    /// The object it filters on died before the post, which ended it.
    case objectDead = "object-dead"
    /// Its token (a sequence's iterator) was released, which ended it before the post.
    case tokenDropped = "token-dropped"
    /// The post was handed to its queue, run loop or mailbox and has not run by the trace's end.
    case stillQueued = "still-queued"
    /// Its full sequence buffer dropped the message to take a newer one.
    case bufferDropped = "buffer-dropped"
    /// The trace does not say: the detail says what it lacks.
    case unknown

    public var description: String { rawValue }
}

/// One registration weighed for one post.
public struct ExplanationVerdict: Sendable, Hashable {
    /// The registration id.
    public let registration: UInt64
    /// Where it registered; nil when the model no longer tracks it.
    public let site: CallsiteInfo?
    /// The name it observes, `*` for every name (`?` when no longer tracked).
    public let name: String
    /// The label of its center when the stream carries several (nil for one); for a delivered
    /// registration the model no longer tracks, the post's center, the only one it can have run on.
    public let center: String?
    /// Whether its handler ran for the post (or, for a typed message, its consumer took it).
    public var delivered: Bool { reason == .delivered }
    /// Why.
    public let reason: ExplanationReason
    /// The evidence, for a person.
    public let detail: String
}

/// One post, and every registration that could have received it.
public struct PostExplanation: Sendable, Hashable {
    /// The post, as a cascade shows it too.
    public let post: PostInfo
    /// Enqueues a notification queue merged into this post; nil when none. From 1.5 the queue
    /// names the post; an older trace's queue lines only count merges of the name before the post.
    public let coalesced: Int?
    /// Where the merged enqueues were made, one entry per call site (1.5; empty before).
    public let coalescedSites: [CoalescedEnqueues]
    /// Registrations weighed, delivered first, then by id. Those made after the post are counted
    /// in ``registeredLater`` instead, unless one registration was asked about.
    public let considered: [ExplanationVerdict]
    /// Registrations that could have received the post but were made after it; nil for none.
    public let registeredLater: LaterRegistrations?
    /// What the trace could not say about this post (deliveries overwritten, events lost).
    public let notes: [String]
}

/// Registrations made after a post, summed up: each would only say "registered after".
public struct LaterRegistrations: Sendable, Hashable {
    /// How many.
    public let count: Int
    /// Stream nanoseconds from the post to the first of them.
    public let firstAfter: UInt64

    /// `12 registered later, the first 2.5 µs after the post`.
    public var summary: String {
        "\(count) registered later, the first \(ExplainText.duration(firstAfter)) after the post"
    }
}

/// Enqueues of one call site that a notification queue merged into a post.
public struct CoalescedEnqueues: Sendable, Hashable {
    /// The `enqueue` call.
    public let site: CallsiteInfo
    /// How many enqueues from it were merged.
    public let count: Int
    /// Stream time of the first of them.
    public let enqueuedAt: UInt64
}

/// The answer to "why did (or didn't) this name's observers run?".
public struct Explanation: Sendable, Hashable {
    /// The name asked about.
    public let name: String
    /// Names near it (typos, case) that registrations observe or posts use.
    public let nearNames: [String]
    /// The posts explained, oldest first.
    public let posts: [PostExplanation]
    /// Whole-answer notes: a name nobody posted, what the trace does not carry.
    public let notes: [String]

    /// An explanation of these posts.
    public init(name: String, nearNames: [String], posts: [PostExplanation], notes: [String]) {
        self.name = name
        self.nearNames = nearNames
        self.posts = posts
        self.notes = notes
    }
}

/// One registration's posts: those it received, and those it missed with the reason.
public struct RegistrationExplanation: Sendable, Hashable {
    /// The registration.
    public let registration: ObserverRow
    /// The kept posts of its name (every name for `*`), oldest first, each with this
    /// registration's verdict as its only ``PostExplanation/considered`` entry.
    public let posts: [PostExplanation]
    /// What the trace could not say.
    public let notes: [String]
}
