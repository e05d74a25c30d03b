/// The one spelling of every name on the wire: each line kind's `k` value and each field key.
/// ``TraceEncoder`` writes these bytes, the fast path (``CanonicalLineDecoder``) compares them, and
/// the general path (``TraceLineDecoder``, ``TraceFieldReader``) matches names against them.
///
/// A name is stored with the punctuation the encoder writes around it, so writing or checking one
/// is one constant: a kind as a line's opening, `{"k":"post"`, and a key as a field's opening after
/// the previous field, `,"postID":`. Members are computed from literals: using one costs no lookup
/// and no allocation.
///
/// ``WireKind`` is how a line of one kind opens: `{"k":"`, the kind's name, `"`.
struct WireKind {
    /// The key that holds a line's kind.
    static var key: StaticString { "k" }

    /// The bytes every line starts with: `{"k":"`.
    static var openingPrefix: StaticString { #"{"k":""# }

    /// `{"k":"name"`.
    let opening: StaticString

    private init(_ opening: StaticString) {
        let prefix = Self.openingPrefix.utf8CodeUnitCount
        let count = opening.utf8CodeUnitCount
        assert(
            count > prefix + 1 && (0..<prefix).allSatisfy { opening.utf8Start[$0] == Self.openingPrefix.utf8Start[$0] }
                && opening.utf8Start[count - 1] == UInt8(ascii: "\""),
            "a kind's opening is {\"k\":\"name\"")
        self.opening = opening
    }

    /// The name alone, as the `k` value holds it.
    var name: UnsafeBufferPointer<UInt8> {
        let prefix = Self.openingPrefix.utf8CodeUnitCount
        return UnsafeBufferPointer(start: opening.utf8Start + prefix, count: opening.utf8CodeUnitCount - prefix - 1)
    }

    static var header: WireKind { WireKind(#"{"k":"header""#) }
    static var thread: WireKind { WireKind(#"{"k":"thread""#) }
    static var type: WireKind { WireKind(#"{"k":"type""#) }
    static var object: WireKind { WireKind(#"{"k":"obj""#) }
    static var callsite: WireKind { WireKind(#"{"k":"site""#) }
    static var registered: WireKind { WireKind(#"{"k":"register""#) }
    static var posted: WireKind { WireKind(#"{"k":"post""#) }
    static var delivered: WireKind { WireKind(#"{"k":"deliver""#) }
    static var removed: WireKind { WireKind(#"{"k":"remove""#) }
    static var tokenDropped: WireKind { WireKind(#"{"k":"token-dropped""#) }
    static var removeMissed: WireKind { WireKind(#"{"k":"remove-missed""#) }
    static var queue: WireKind { WireKind(#"{"k":"queue""#) }
    static var checkpoint: WireKind { WireKind(#"{"k":"checkpoint""#) }
    static var tick: WireKind { WireKind(#"{"k":"tick""#) }
    static var enqueued: WireKind { WireKind(#"{"k":"enqueue""#) }
    static var gap: WireKind { WireKind(#"{"k":"gap""#) }
    static var end: WireKind { WireKind(#"{"k":"end""#) }
    static var history: WireKind { WireKind(#"{"k":"history""#) }
    static var siteCount: WireKind { WireKind(#"{"k":"site-count""#) }
    static var objectDead: WireKind { WireKind(#"{"k":"object-dead""#) }
    static var merged: WireKind { WireKind(#"{"k":"merge""#) }
    static var center: WireKind { WireKind(#"{"k":"center""#) }
}

extension TraceLineKind {
    /// This kind's spelling on the wire (the same text as `rawValue`).
    var wire: WireKind {
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
        case .tick: .tick
        case .enqueued: .enqueued
        case .gap: .gap
        case .end: .end
        case .history: .history
        case .siteCount: .siteCount
        case .objectDead: .objectDead
        case .merged: .merged
        case .center: .center
        }
    }
}

/// A field key, stored as a field's opening after the previous field: `,"key":`.
///
/// Grouped by the kind that introduces each key, in the encoder's order; a later kind reuses the
/// keys above it (every event starts with `seq`, `t` and, when it has one, `thread`).
struct WireKey {
    /// `,"key":`.
    let opening: StaticString

    private init(_ opening: StaticString) {
        let bytes = opening.utf8Start
        let count = opening.utf8CodeUnitCount
        assert(
            count > 4 && bytes[0] == UInt8(ascii: ",") && bytes[1] == UInt8(ascii: "\"")
                && bytes[count - 2] == UInt8(ascii: "\"") && bytes[count - 1] == UInt8(ascii: ":"),
            "a key's opening is ,\"key\":")
        self.opening = opening
    }

    /// The key alone.
    var name: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: opening.utf8Start + 2, count: opening.utf8CodeUnitCount - 4)
    }

    /// The key as text, for error messages.
    var text: String { String(decoding: name, as: UTF8.self) }

    // Every event.
    static var seq: WireKey { WireKey(#","seq":"#) }
    static var t: WireKey { WireKey(#","t":"#) }
    static var thread: WireKey { WireKey(#","thread":"#) }

    // header
    static var format: WireKey { WireKey(#","format":"#) }
    static var version: WireKey { WireKey(#","version":"#) }
    static var pid: WireKey { WireKey(#","pid":"#) }
    static var process: WireKey { WireKey(#","process":"#) }
    static var center: WireKey { WireKey(#","center":"#) }
    static var clockMono: WireKey { WireKey(#","clockMono":"#) }
    static var clockWall: WireKey { WireKey(#","clockWall":"#) }
    static var producer: WireKey { WireKey(#","producer":"#) }
    /// Written only when the producer keeps history (1.4).
    static var since: WireKey { WireKey(#","since":"#) }
    /// Written only when the stream carries several centers (1.5); `register` and `post` lines
    /// then carry `center`, an index into it.
    static var centers: WireKey { WireKey(#","centers":"#) }

    // thread, type
    static var id: WireKey { WireKey(#","id":"#) }
    static var systemID: WireKey { WireKey(#","systemID":"#) }
    static var name: WireKey { WireKey(#","name":"#) }
    static var isMain: WireKey { WireKey(#","isMain":"#) }

    // obj
    static var type: WireKey { WireKey(#","type":"#) }
    static var addr: WireKey { WireKey(#","addr":"#) }

    // site
    static var file: WireKey { WireKey(#","file":"#) }
    static var line: WireKey { WireKey(#","line":"#) }

    // register
    static var kind: WireKey { WireKey(#","kind":"#) }
    static var observer: WireKey { WireKey(#","observer":"#) }
    static var object: WireKey { WireKey(#","object":"#) }
    static var target: WireKey { WireKey(#","target":"#) }
    static var targetLabel: WireKey { WireKey(#","targetLabel":"#) }
    static var callsite: WireKey { WireKey(#","callsite":"#) }
    static var preexisting: WireKey { WireKey(#","preexisting":"#) }
    static var capturesObserverStrongly: WireKey { WireKey(#","capturesObserverStrongly":"#) }
    static var mainThreadOnly: WireKey { WireKey(#","mainThreadOnly":"#) }
    static var registeredAt: WireKey { WireKey(#","registeredAt":"#) }
    /// Written last, and only for a snapshot's registration whose deliveries the producer counted (1.4).
    static var deliveries: WireKey { WireKey(#","deliveries":"#) }

    // post
    static var postID: WireKey { WireKey(#","postID":"#) }
    static var hasUserInfo: WireKey { WireKey(#","hasUserInfo":"#) }
    static var matched: WireKey { WireKey(#","matched":"#) }
    static var depth: WireKey { WireKey(#","depth":"#) }
    static var parentPostID: WireKey { WireKey(#","parentPostID":"#) }
    /// Written last, and only for typed messages.
    static var message: WireKey { WireKey(#","message":"#) }

    // deliver
    static var registration: WireKey { WireKey(#","registration":"#) }
    static var postingThread: WireKey { WireKey(#","postingThread":"#) }
    static var start: WireKey { WireKey(#","start":"#) }
    static var duration: WireKey { WireKey(#","duration":"#) }
    static var wait: WireKey { WireKey(#","wait":"#) }

    // remove, gap, end
    static var reason: WireKey { WireKey(#","reason":"#) }
    // end of a viewer cut off for falling behind (written only then)
    static var behind: WireKey { WireKey(#","behind":"#) }
    static var missed: WireKey { WireKey(#","missed":"#) }
    static var queuedBytes: WireKey { WireKey(#","queuedBytes":"#) }

    // queue
    static var queueID: WireKey { WireKey(#","queueID":"#) }
    static var action: WireKey { WireKey(#","action":"#) }
    static var style: WireKey { WireKey(#","style":"#) }
    static var count: WireKey { WireKey(#","count":"#) }
    static var pending: WireKey { WireKey(#","pending":"#) }

    // tick (written only when known)
    static var viewers: WireKey { WireKey(#","viewers":"#) }

    // enqueue (after postID, registration and pending)
    static var droppedOldest: WireKey { WireKey(#","droppedOldest":"#) }

    // checkpoint (then `preexisting`, written only when true)
    static var label: WireKey { WireKey(#","label":"#) }

    // history (then `deliveries`)
    static var posts: WireKey { WireKey(#","posts":"#) }
    static var unheard: WireKey { WireKey(#","unheard":"#) }
    /// Written only when true (1.6), after `registration` (written only when known).
    static var recent: WireKey { WireKey(#","recent":"#) }

    // site-count
    static var live: WireKey { WireKey(#","live":"#) }

    // object-dead (after `registration` and `object`; 1.5)
    static var aliveAt: WireKey { WireKey(#","aliveAt":"#) }

    // merge (after `queueID`, `postID`, `callsite` and `count`; 1.5)
    static var enqueuedAt: WireKey { WireKey(#","enqueuedAt":"#) }
}

extension Array where Element == UInt8 {
    /// Appends a line's opening, `{"k":"name"`.
    @inline(__always)
    mutating func appendKind(_ kind: WireKind) { appendLiteral(kind.opening) }

    /// Appends a field's opening, `,"key":`.
    @inline(__always)
    mutating func appendKey(_ key: WireKey) { appendLiteral(key.opening) }
}
