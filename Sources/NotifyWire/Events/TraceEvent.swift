/// One line of a notifytop trace: the value that a live viewer, a recording and a replay all pass
/// around.
///
/// A trace is a JSON Lines stream. Its first line is a ``TraceHeader``. Definition lines
/// (``TraceType``, ``TraceObject`` and ``TraceCallsite``) introduce, once, the type names, objects
/// and callsites that later lines refer to by id. Every other line is an event, stamped with a
/// per-process sequence number and a monotonic timestamp. The case names and fields mirror
/// NotifyKit's `ProbeEvent`, so a probe's events map onto these values one to one, without this
/// module depending on NotifyKit.
///
/// ```swift
/// var decoder = TraceDecoder()
/// decoder.feed(bytes)
/// while let event = try decoder.next() {
///     if case .posted(let post) = event { print(post.name, post.matched) }
/// }
/// ```
///
/// The wire format, field by field, is specified in the *Wire format* article.
public enum TraceEvent: Sendable, Hashable {
    /// The first line of a stream: who produced it and how to read its clock.
    case header(TraceHeader)
    /// A thread's first appearance, or its new name: later lines name it by id.
    case thread(TraceThread)
    /// A type name's first appearance: objects refer to it by id.
    case type(TraceType)
    /// An object's first appearance: registrations and posts refer to it by id.
    case object(TraceObject)
    /// A source location's first appearance: registrations and posts refer to it by id.
    case callsite(TraceCallsite)
    /// A registration began, or was live when the stream started (`preexisting`).
    case registered(TraceRegistration)
    /// A notification was posted; its deliveries follow with the same post id.
    case posted(TracePost)
    /// One handler ran for one post.
    case delivered(TraceDelivery)
    /// A registration ended.
    case removed(TraceRemoval)
    /// The token of a live registration was released without cancelling it.
    case tokenDropped(TraceTokenDrop)
    /// A `removeObserver` call matched no live registration.
    case removeMissed(TraceMissedRemoval)
    /// A notification queue enqueued, coalesced, dequeued or flushed notifications.
    case queue(TraceQueueActivity)
    /// The app marked a moment (a screen closed, a test step) for the growth rules to compare at.
    case checkpoint(TraceCheckpoint)
    /// Events were lost between the producer and this reader.
    case gap(TraceGap)
    /// The producer ended the stream on purpose.
    case end(TraceEnd)
    /// The producer's clock during a quiet period; nothing happened (format 1.1).
    case tick(TraceTick)
    /// A typed message was queued for one observer's mailbox or sequence buffer (format 1.2).
    case enqueued(TraceMessageEnqueue)
    /// Posts and deliveries of one thread and name that the stream does not carry as events; a
    /// reader adds them up (format 1.4).
    case history(TraceHistory)
    /// A call site's live registration count after one of its changes before the stream began
    /// (format 1.4).
    case siteCount(TraceSiteCount)
    /// An object filter was found dead (format 1.5).
    case objectDead(TraceObjectDeath)
    /// A notification queue merged an enqueue into a later post (format 1.5).
    case merged(TraceQueueMerge)
    /// A center of a stream of several, introduced after the header (format 1.5, NotifyKit 0.2).
    case center(TraceCenter)
    /// A line of a kind this version does not know (a newer minor version's addition), kept so
    /// a caller can count or skip it and a re-encoder can pass it through unchanged.
    case unknown(TraceUnknownLine)

    /// The line kind, as the `k` field spells it; nil for an ``unknown(_:)`` line.
    public var kind: TraceLineKind? {
        switch self {
        case .header: .header
        case .thread: .thread
        case .type: .type
        case .object: .object
        case .callsite: .callsite
        case .registered: .registered
        case .posted: .posted
        case .delivered: .delivered
        case .removed: .removed
        case .tokenDropped: .tokenDropped
        case .removeMissed: .removeMissed
        case .queue: .queue
        case .checkpoint: .checkpoint
        case .gap: .gap
        case .end: .end
        case .tick: .tick
        case .enqueued: .enqueued
        case .history: .history
        case .siteCount: .siteCount
        case .objectDead: .objectDead
        case .merged: .merged
        case .center: .center
        case .unknown: nil
        }
    }

    /// The per-process sequence number; nil for the header, definitions, history, site counts and
    /// unknown lines, which are not events.
    public var seq: UInt64? {
        switch self {
        case .header, .type, .object, .callsite, .center, .history, .siteCount, .unknown: nil
        case .thread(let value): value.seq
        case .registered(let value): value.seq
        case .posted(let value): value.seq
        case .delivered(let value): value.seq
        case .removed(let value): value.seq
        case .tokenDropped(let value): value.seq
        case .removeMissed(let value): value.seq
        case .queue(let value): value.seq
        case .checkpoint(let value): value.seq
        case .gap(let value): value.seq
        case .end(let value): value.seq
        case .tick(let value): value.seq
        case .enqueued(let value): value.seq
        case .objectDead(let value): value.seq
        case .merged(let value): value.seq
        }
    }

    /// Monotonic nanoseconds when the event happened; nil where ``seq`` is nil (a history or site
    /// count line's own time tells of the past, not of the stream's progress).
    public var timestamp: UInt64? {
        switch self {
        case .header, .type, .object, .callsite, .center, .history, .siteCount, .unknown: nil
        case .thread(let value): value.timestamp
        case .registered(let value): value.timestamp
        case .posted(let value): value.timestamp
        case .delivered(let value): value.timestamp
        case .removed(let value): value.timestamp
        case .tokenDropped(let value): value.timestamp
        case .removeMissed(let value): value.timestamp
        case .queue(let value): value.timestamp
        case .checkpoint(let value): value.timestamp
        case .gap(let value): value.timestamp
        case .end(let value): value.timestamp
        case .tick(let value): value.timestamp
        case .enqueued(let value): value.timestamp
        case .objectDead(let value): value.timestamp
        case .merged(let value): value.timestamp
        }
    }
}

/// What a reader needs of an event to follow the stream (its kind, number and time), known
/// without reading the event: a decoder has these at hand as it builds the event.
public struct TraceEventSummary: Sendable, Equatable {
    /// The line kind; nil for an unknown line.
    public var kind: TraceLineKind?
    /// The sequence number; nil for lines that are not events.
    public var seq: UInt64?
    /// The event's time; nil for lines that are not events.
    public var timestamp: UInt64?

    /// Creates a summary.
    public init(kind: TraceLineKind?, seq: UInt64?, timestamp: UInt64?) {
        self.kind = kind
        self.seq = seq
        self.timestamp = timestamp
    }

    /// The summary of `event`.
    public init(_ event: TraceEvent) {
        self.init(kind: event.kind, seq: event.seq, timestamp: event.timestamp)
    }
}

/// The kinds of line a trace holds, with the `k` value that names each on the wire.
///
/// Readers dispatch on these names; a name outside this list decodes as
/// ``TraceEvent/unknown(_:)`` so that streams from a newer minor version stay readable.
public enum TraceLineKind: String, Sendable, Hashable, CaseIterable {
    /// `"header"`: see ``TraceHeader``.
    case header
    /// `"thread"`: see ``TraceThread``.
    case thread
    /// `"type"`: see ``TraceType``.
    case type
    /// `"obj"`: see ``TraceObject``.
    case object = "obj"
    /// `"site"`: see ``TraceCallsite``.
    case callsite = "site"
    /// `"register"`: see ``TraceRegistration``.
    case registered = "register"
    /// `"post"`: see ``TracePost``.
    case posted = "post"
    /// `"deliver"`: see ``TraceDelivery``.
    case delivered = "deliver"
    /// `"remove"`: see ``TraceRemoval``.
    case removed = "remove"
    /// `"token-dropped"`: see ``TraceTokenDrop``.
    case tokenDropped = "token-dropped"
    /// `"remove-missed"`: see ``TraceMissedRemoval``.
    case removeMissed = "remove-missed"
    /// `"queue"`: see ``TraceQueueActivity``.
    case queue
    /// `"checkpoint"`: see ``TraceCheckpoint``.
    case checkpoint
    /// `"tick"`: see ``TraceTick`` (format 1.1).
    case tick
    /// `"enqueue"`: see ``TraceMessageEnqueue`` (format 1.2).
    case enqueued = "enqueue"
    /// `"history"`: see ``TraceHistory`` (format 1.4).
    case history
    /// `"site-count"`: see ``TraceSiteCount`` (format 1.4).
    case siteCount = "site-count"
    /// `"object-dead"`: see ``TraceObjectDeath`` (format 1.5).
    case objectDead = "object-dead"
    /// `"merge"`: see ``TraceQueueMerge`` (format 1.5).
    case merged = "merge"
    /// `"center"`: see ``TraceCenter`` (format 1.5, NotifyKit 0.2).
    case center
    /// `"gap"`: see ``TraceGap``.
    case gap
    /// `"end"`: see ``TraceEnd``.
    case end
}
