/// Events were lost between the producer and this reader, and exactly how many.
///
/// A producer never blocks the app it observes: when a buffer fills it drops events and, as soon
/// as it can, writes one gap line with the count. Losing data visibly beats stalling the app.
public struct TraceGap: Sendable, Hashable {
    /// The gap line's own sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the gap was reported.
    public var timestamp: UInt64
    /// How many events were lost.
    public var count: UInt64
    /// Why they were lost.
    public var reason: TraceGapReason

    /// Creates a gap event.
    public init(seq: UInt64, timestamp: UInt64, count: UInt64, reason: TraceGapReason) {
        self.seq = seq
        self.timestamp = timestamp
        self.count = count
        self.reason = reason
    }
}

/// Why events were lost: an open set, so a newer producer's reasons still decode.
public struct TraceGapReason: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire spelling.
    public var rawValue: String

    /// Wraps any wire spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Allows `"buffer-full"` where a reason is expected.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The wire spelling.
    public var description: String { rawValue }

    /// The in-process buffer between the probe and the exporter was full: every viewer lost these.
    public static let bufferFull: TraceGapReason = "buffer-full"
    /// This viewer read too slowly and its own send queue overflowed; other viewers may have them.
    public static let viewerBehind: TraceGapReason = "viewer-behind"
    /// Centers made while the inspector already streamed as many as it can at once: `count` is
    /// how many centers are not streamed, every event of theirs lost.
    public static let centerLimit: TraceGapReason = "center-limit"
    /// Synthesized by a reader, not sent: numbers missing from `seq` that no gap line counted
    /// (a stream cut off before its producer could report a loss).
    public static let unaccounted: TraceGapReason = "unaccounted"
}

/// The producer ended the stream on purpose; a stream that stops without one was cut off.
public struct TraceEnd: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the stream ended.
    public var timestamp: UInt64
    /// Why it ended.
    public var reason: TraceEndReason
    /// For a viewer cut off for falling behind: how long it had been behind, in nanoseconds; nil
    /// on other ends and from producers that do not say.
    public var behindNanoseconds: UInt64?
    /// For a viewer cut off for falling behind: the events the cut-off lost it, those queued and
    /// not yet started and those missed since its last gap (the gaps just before this line count
    /// them).
    public var missedEvents: UInt64?
    /// For a viewer cut off for falling behind: the bytes queued for it and not yet taken.
    public var queuedBytes: UInt64?

    /// Creates an end-of-stream event.
    public init(
        seq: UInt64, timestamp: UInt64, reason: TraceEndReason, behindNanoseconds: UInt64? = nil,
        missedEvents: UInt64? = nil, queuedBytes: UInt64? = nil
    ) {
        self.seq = seq
        self.timestamp = timestamp
        self.reason = reason
        self.behindNanoseconds = behindNanoseconds
        self.missedEvents = missedEvents
        self.queuedBytes = queuedBytes
    }
}

/// Why a stream ended: an open set, so a newer producer's reasons still decode.
public struct TraceEndReason: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire spelling.
    public var rawValue: String

    /// Wraps any wire spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Allows `"process-exit"` where a reason is expected.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The wire spelling.
    public var description: String { rawValue }

    /// The producing process is exiting.
    public static let processExit: TraceEndReason = "process-exit"
    /// The app stopped its inspector; the process goes on.
    public static let inspectorStopped: TraceEndReason = "inspector-stopped"
    /// The producer disconnected this viewer: it stayed too far behind to catch up. The line then
    /// says how far (``TraceEnd/behindNanoseconds``, ``TraceEnd/missedEvents``,
    /// ``TraceEnd/queuedBytes``).
    public static let disconnected: TraceEndReason = "disconnected"
    /// The user stopped a recording (`r` again, or quitting notifytop); the recorded process went on.
    public static let recordingStopped: TraceEndReason = "recording-stopped"
    /// The app already has as many viewers as it allows; sent to a viewer refused on arrival.
    public static let viewerLimit: TraceEndReason = "viewer-limit"
}

/// A line whose kind this version does not know, kept whole.
///
/// Minor versions may add line kinds; an older reader hands them over as this value instead of
/// failing, so a caller can count them, skip them, or re-encode them byte for byte.
public struct TraceUnknownLine: Sendable, Hashable {
    /// The line's `k` value.
    public var kind: String
    /// The line's text, without its newline.
    public var line: String

    /// Creates an unknown line; `line` must be one JSON object with no newline in it.
    public init(kind: String, line: String) {
        self.kind = kind
        self.line = line
    }
}

/// A point the app marked with `NotifyCenter.checkpoint(_:)`, such as "screen closed": the
/// moments at which growth and never-posted rules compare what they saw.
public struct TraceCheckpoint: Sendable, Hashable {
    /// Sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the checkpoint was taken.
    public var timestamp: UInt64
    /// The thread that took it.
    public var thread: UInt64
    /// The app's label for the moment.
    public var label: String
    /// `site` of the call.
    public var callsite: UInt64
    /// True when the checkpoint was taken before the stream started: one of the app's recent
    /// checkpoints, sent in the snapshot a viewer receives on attach, at its true time (format 1.4).
    public var preexisting: Bool

    /// Creates a checkpoint event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, label: String, callsite: UInt64, preexisting: Bool = false
    ) {
        self.preexisting = preexisting
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.label = label
        self.callsite = callsite
    }
}

/// The producer's clock, sent while the stream is otherwise quiet (format 1.1): it carries stream
/// time through idle periods, so a reader's model moves on without reading a clock of its own.
/// From format 1.3 it also carries how many viewers the producer streams to, and is sent whenever
/// that number changes.
public struct TraceTick: Sendable, Hashable {
    /// The line's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when it was sent.
    public var timestamp: UInt64
    /// Viewers attached to the producer when it was sent (this one included); nil on lines of
    /// producers before format 1.3, which do not say.
    public var viewers: UInt64?

    /// Creates a clock line.
    public init(seq: UInt64, timestamp: UInt64, viewers: UInt64? = nil) {
        self.seq = seq
        self.timestamp = timestamp
        self.viewers = viewers
    }
}
