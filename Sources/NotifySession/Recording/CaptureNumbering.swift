import NotifyWire

/// Numbers the lines a filtered capture keeps afresh, so the events it leaves out do not read as
/// events lost: a reader counts numbers skipped in `seq` as lost. Numbers the stream itself
/// skipped (events the producer lost) stay skipped, so those losses still show.
struct CaptureNumbering {
    private var lastSeen: UInt64?
    private var lastWritten: UInt64 = 0
    /// Numbers the stream skipped since the last line written.
    private var skippedByStream: UInt64 = 0

    /// Notes the number of a line that arrived, kept or not.
    mutating func saw(_ event: TraceEvent) {
        guard let seq = event.seq else { return }
        if lastSeen == nil {
            // A snapshot's threads and live registrations may carry numbers from before the stream.
            switch event {
            case .thread: return
            case .registered(let registration) where registration.preexisting: return
            default: break
            }
        }
        if let last = lastSeen, seq > last &+ 1 { skippedByStream &+= seq - last - 1 }
        lastSeen = max(lastSeen ?? seq, seq)
    }

    /// `event`, kept, with its new number.
    mutating func renumber(_ event: TraceEvent) -> TraceEvent {
        guard event.seq != nil else { return event }
        lastWritten &+= 1 &+ skippedByStream
        skippedByStream = 0
        return Self.event(event, seq: lastWritten)
    }

    /// The number the next line written would take: an end line added after the last.
    var next: UInt64 { lastWritten &+ 1 }

    private static func event(_ event: TraceEvent, seq: UInt64) -> TraceEvent {
        switch event {
        case .thread(var value):
            value.seq = seq
            return .thread(value)
        case .registered(var value):
            value.seq = seq
            return .registered(value)
        case .posted(var value):
            value.seq = seq
            return .posted(value)
        case .delivered(var value):
            value.seq = seq
            return .delivered(value)
        case .removed(var value):
            value.seq = seq
            return .removed(value)
        case .tokenDropped(var value):
            value.seq = seq
            return .tokenDropped(value)
        case .removeMissed(var value):
            value.seq = seq
            return .removeMissed(value)
        case .queue(var value):
            value.seq = seq
            return .queue(value)
        case .checkpoint(var value):
            value.seq = seq
            return .checkpoint(value)
        case .gap(var value):
            value.seq = seq
            return .gap(value)
        case .end(var value):
            value.seq = seq
            return .end(value)
        case .tick(var value):
            value.seq = seq
            return .tick(value)
        case .enqueued(var value):
            value.seq = seq
            return .enqueued(value)
        case .objectDead(var value):
            value.seq = seq
            return .objectDead(value)
        case .merged(var value):
            value.seq = seq
            return .merged(value)
        case .header, .type, .object, .callsite, .center, .history, .siteCount, .unknown: return event
        }
    }
}
