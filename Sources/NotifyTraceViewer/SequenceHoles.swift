import NotifyWire

/// Counts events known missing from a stream: numbers skipped in `seq` beyond what gap lines
/// account for.
///
/// Only holes count. Lines without `seq` (header, definitions) are no evidence, an unknown line
/// (a newer minor version's kind) may have used a number, and a snapshot's threads and
/// preexisting registrations before the first other event may carry numbers from before the
/// stream began (a recording started mid-session), so counting starts after them.
struct SequenceHoles {
    private var last: UInt64?
    private var unknownSinceLast: UInt64 = 0
    /// Numbers skipped, over every stream read (a new header starts numbering afresh).
    private(set) var missing: UInt64 = 0
    /// Events gap lines reported lost.
    private(set) var reported: UInt64 = 0
    /// The newest timestamp and sequence number seen, for a synthesized gap.
    private(set) var latestTime: UInt64 = 0
    private(set) var latestSeq: UInt64 = 0

    /// Events missing that no gap line accounts for.
    var unaccounted: UInt64 { missing > reported ? missing - reported : 0 }

    /// Notes one event.
    mutating func observe(_ event: TraceEvent) {
        observe(TraceEventSummary(event)) { event }
    }

    /// Notes one event from its summary; `event` gives the event itself, asked only for the lines
    /// whose fields matter here (gaps, and registrations before the first other event).
    mutating func observe(_ summary: TraceEventSummary, event: () -> TraceEvent) {
        if let time = summary.timestamp, time > latestTime { latestTime = time }
        switch summary.kind {
        case .header:
            last = nil
            unknownSinceLast = 0
            return
        case nil:
            unknownSinceLast &+= 1
            return
        case .gap:
            if case .gap(let gap) = event() { reported &+= gap.count }
        case .thread where last == nil:
            return
        case .registered where last == nil:
            if case .registered(let registration) = event(), registration.preexisting { return }
        default:
            break
        }
        guard let seq = summary.seq else { return }
        latestSeq = max(latestSeq, seq)
        if let last {
            guard seq > last else { return }
            let skipped = seq - last - 1
            missing &+= skipped > unknownSinceLast ? skipped - unknownSinceLast : 0
        }
        last = seq
        unknownSinceLast = 0
    }

    /// A gap line for the unaccounted events, once the stream is over; nil when none are missing.
    func synthesizedGap() -> TraceEvent? {
        guard unaccounted > 0 else { return nil }
        return .gap(TraceGap(seq: latestSeq &+ 1, timestamp: latestTime, count: unaccounted, reason: .unaccounted))
    }
}
