import NotifyWire
import NotifySystem

/// One attached viewer on the app side: its socket and a bounded queue of encoded lines not yet
/// written.
///
/// A viewer that reads too slowly is never waited for. Event lines that do not fit under
/// `eventLimit`, once the socket has taken what it will, are counted as missed: only this viewer's
/// full socket makes it miss a line, never the size of a batch. Once there is room again the viewer
/// receives a `gap` line with the exact count. The gap carries the `seq` of the last event it
/// stands for, so it takes no number from the stream and the holes in `seq` before it add up to
/// its count. Lines that later lines depend on (header, definitions, threads, snapshot) and the
/// ring's own `buffer-full` gaps are always queued.
///
/// When the stream ends (or the viewer is cut off) the lines it has not started to receive are
/// given up, and a final gap counts the events among them before the `end` line.
final class ViewerConnection {
    /// What a line stands for, so that giving it up can be counted.
    enum Line {
        /// A line later lines depend on (header, definitions, threads, snapshot, end): never dropped.
        /// `events` is how many events it counts for if it has to be given up at the end.
        case required(seq: UInt64?, events: UInt64)
        /// A live event line, or a gap line standing for `events` lost events.
        case event(seq: UInt64, events: UInt64)
        /// A `buffer-full` gap of the ring's: queued like a required line. The events it counts
        /// took no numbers, so a cut-off keeps it whole rather than count them in its own gap.
        case ringGap(seq: UInt64, events: UInt64)
    }

    /// A queued line: where it ends in the byte stream and what it stands for.
    private struct Entry {
        var start: Int
        var end: Int
        var seq: UInt64
        var events: UInt64
        var isRingGap = false
    }

    let socket: UnixSocket
    /// Bytes queued beyond which event lines are counted as missed.
    let eventLimit: Int
    private var queued: [UInt8] = []
    private var sent = 0
    /// Bytes removed from the front of `queued` so far: entry ends count from the stream's start.
    private var removed = 0
    private var entries: [Entry] = []
    private var firstEntry = 0
    private var missed: UInt64 = 0
    /// Whether this viewer has missed an event while its stream ran.
    private(set) var hasEverMissed = false
    private var lastMissedSeq: UInt64 = 0
    /// When the viewer first missed a line that is not yet reported: it has been behind since.
    private(set) var behindSince: UInt64?
    /// The `end` line is queued; nothing more is.
    private(set) var isEnding = false
    private(set) var isClosed = false

    init(socket: UnixSocket, eventLimit: Int) {
        self.socket = socket
        self.eventLimit = eventLimit
    }

    var queuedByteCount: Int { queued.count - sent }
    var hasMissed: Bool { missed > 0 }

    /// Queues one encoded line (it ends with a newline), or counts its events as missed.
    func enqueue(_ line: ArraySlice<UInt8>, as kind: Line, now: UInt64) {
        guard !isClosed, !isEnding else { return }
        switch kind {
        case .required(let seq, let events):
            // A numbered line must not overtake the gap that numbers the events missed before it.
            if seq != nil && missed > 0 { queueGap(now: now) }
            append(line, seq: seq ?? 0, events: events)
        case .ringGap(let seq, let events):
            if missed > 0 { queueGap(now: now) }
            append(line, seq: seq, events: events, isRingGap: true)
        case .event(let seq, let events):
            if missed == 0 && hasRoom(for: line.count) {
                append(line, seq: seq, events: events)
            } else {
                noteMissed(events, through: seq)
                hasEverMissed = true
                if behindSince == nil { behindSince = now }
            }
        }
    }

    /// Queues a chunk of encoded lines, line `i` ending at `ends[i]` and standing for `kinds[i]`:
    /// in one copy when nothing is missed and the whole chunk fits, else line by line.
    func enqueue(chunk bytes: ArraySlice<UInt8>, ends: [Int], kinds: [Line], now: UInt64) {
        guard !isClosed, !isEnding, !ends.isEmpty else { return }
        guard missed == 0 && hasRoom(for: bytes.count) else {
            var start = 0
            for (end, kind) in zip(ends, kinds) {
                enqueue(bytes[start..<end], as: kind, now: now)
                start = end
            }
            return
        }
        // Nothing waiting: the socket takes what it will straight from the chunk, and only the
        // rest is copied into the queue.
        var taken = 0
        if queued.isEmpty {
            guard let written = bytes.withUnsafeBytes({ socket.writeSome($0) }) else {
                close()
                return
            }
            taken = written
        }
        let base = removed + queued.count
        removed += taken
        queued.append(contentsOf: bytes.dropFirst(taken))
        entries.reserveCapacity(entries.count + ends.count)
        var start = base
        for (end, kind) in zip(ends, kinds) {
            defer { start = base + end }
            // Written whole already: nothing to account for.
            guard end > taken else { continue }
            let (seq, events, isRingGap) =
                switch kind {
                case .required(let seq, let events): (seq ?? 0, events, false)
                case .event(let seq, let events): (seq, events, false)
                case .ringGap(let seq, let events): (seq, events, true)
                }
            entries.append(Entry(start: start, end: base + end, seq: seq, events: events, isRingGap: isRingGap))
        }
    }

    /// Reports missed events with a gap line as soon as it fits, even when no new line is waiting.
    func reportMissed(now: UInt64) {
        guard !isClosed, !isEnding, missed > 0 else { return }
        guard queuedByteCount + gapBytes(now: now).count <= eventLimit else { return }
        queueGap(now: now)
        behindSince = nil
    }

    /// Ends the stream after what is queued: reports missed events, then queues `end`.
    func finish(with end: TraceEnd) {
        guard !isClosed, !isEnding else { return }
        if missed > 0 { queueGap(now: end.timestamp) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(.end(end), into: &bytes)
        append(bytes[...], seq: end.seq, events: 0)
        isEnding = true
    }

    /// Ends the stream now: gives up every event line the viewer has not started to receive, then
    /// queues a gap with the exact count of events given up or missed, and `end`. Returns that
    /// count.
    ///
    /// Numbered lines that carry no event (a `tick`, a `thread`) and the ring's `buffer-full` gaps
    /// are kept, each after a gap for the events given up before it: they take numbers, and a
    /// number no gap counts would read as a lost event.
    @discardableResult
    func cutOff(with end: TraceEnd) -> UInt64 {
        guard !isClosed else { return 0 }
        let lost = giveUpUnsent(now: end.timestamp)
        finish(with: end)
        return lost
    }

    /// Cuts off a viewer that fell too far behind, with an `end` line (reason `disconnected`, number
    /// `seq`) that says how long it was behind, how many events the cut-off loses (given up or
    /// missed since the last gap: what the gaps before the `end` count) and how many bytes were
    /// queued for it. Returns that count, as ``cutOff(with:)``.
    @discardableResult
    func cutOffBehind(seq: UInt64, now: UInt64) -> UInt64 {
        guard !isClosed else { return 0 }
        let queuedBytes = UInt64(queuedByteCount)
        let behind = behindSince.map { now &- $0 } ?? 0
        let lost = giveUpUnsent(now: now)
        finish(
            with: TraceEnd(
                seq: seq, timestamp: now, reason: .disconnected, behindNanoseconds: behind,
                missedEvents: lost, queuedBytes: queuedBytes))
        return lost
    }

    /// The first half of a cut-off: gives up the lines not started, leaving the count of their
    /// events (and of those missed) for the next gap, and the kept numbered lines queued.
    private func giveUpUnsent(now: UInt64) -> UInt64 {
        let position = removed + sent
        var keep = firstEntry
        while keep < entries.count && entries[keep].end <= position { keep += 1 }
        // Keep the line being written: a viewer must never see half a line followed by another.
        if keep < entries.count && entries[keep].start < position { keep += 1 }
        // An `end` already queued by `finish` is not given up as a line: it is queued again below,
        // after the last gap.
        let givenUp = Array(entries[keep..<(isEnding ? max(keep, entries.count - 1) : entries.count)])
        let keptEnd = keep < entries.count ? entries[keep].start : removed + queued.count
        let givenUpBytes = Array(queued[(keptEnd - removed)...])
        queued.removeSubrange((keptEnd - removed)...)
        entries.removeSubrange(keep...)
        isEnding = false
        // Events missed and not yet reported came after every queued line.
        let missedAtEnd = missed
        let missedAtEndSeq = lastMissedSeq
        missed = 0
        var lost: UInt64 = 0
        for entry in givenUp {
            if entry.isRingGap {
                if missed > 0 { queueGap(now: now) }
                append(
                    givenUpBytes[(entry.start - keptEnd)..<(entry.end - keptEnd)], seq: entry.seq,
                    events: entry.events, isRingGap: true)
            } else if entry.events > 0 {
                noteMissed(entry.events, through: entry.seq)
                lost += entry.events
            } else if entry.seq != 0 {
                if missed > 0 { queueGap(now: now) }
                append(givenUpBytes[(entry.start - keptEnd)..<(entry.end - keptEnd)], seq: entry.seq, events: 0)
            }
        }
        if missedAtEnd > 0 {
            noteMissed(missedAtEnd, through: missedAtEndSeq)
            lost += missedAtEnd
        }
        return lost
    }

    /// Lets go of the queue's spare capacity: a viewer cut off but still to take its last lines
    /// holds only those.
    func releaseSpareCapacity() {
        guard !isClosed else { return }
        queued = Array(queued[sent...])
        removed += sent
        sent = 0
        entries = Array(entries[firstEntry...])
        firstEntry = 0
    }

    /// Writes what the socket takes without blocking; closes the viewer when its peer is gone.
    func flush() {
        guard !isClosed else { return }
        while sent < queued.count {
            let written = queued.withUnsafeBytes { raw in
                socket.writeSome(UnsafeRawBufferPointer(rebasing: raw[sent...]))
            }
            guard let written else {
                close()
                return
            }
            if written == 0 { break }
            sent += written
        }
        let position = removed + sent
        while firstEntry < entries.count && entries[firstEntry].end <= position { firstEntry += 1 }
        if firstEntry == entries.count || firstEntry > 4096 {
            entries.removeFirst(firstEntry)
            firstEntry = 0
        }
        if sent == queued.count {
            removed += sent
            queued.removeAll(keepingCapacity: queued.capacity <= 1 << 20)
            sent = 0
        } else if sent > 1 << 20 {
            removed += sent
            queued.removeFirst(sent)
            sent = 0
        }
    }

    func close() {
        isClosed = true
        socket.close()
        queued = []
        entries = []
        sent = 0
    }

    /// Whether `count` more bytes fit under the limit once the socket has taken what it will: a
    /// line is missed only when this viewer's socket is full, never because the exporter queued a
    /// large batch at once.
    private func hasRoom(for count: Int) -> Bool {
        if queuedByteCount + count <= eventLimit { return true }
        flush()
        return !isClosed && queuedByteCount + count <= eventLimit
    }

    private func append(_ line: ArraySlice<UInt8>, seq: UInt64, events: UInt64, isRingGap: Bool = false) {
        let start = removed + queued.count
        queued.append(contentsOf: line)
        entries.append(
            Entry(start: start, end: removed + queued.count, seq: seq, events: events, isRingGap: isRingGap))
    }

    private func gapBytes(now: UInt64) -> [UInt8] {
        var gap: [UInt8] = []
        TraceEncoder.encode(
            .gap(TraceGap(seq: lastMissedSeq, timestamp: now, count: missed, reason: .viewerBehind)),
            into: &gap)
        return gap
    }

    /// Counts `events`, the last numbered `seq`, as missed: the next gap reports them.
    private func noteMissed(_ events: UInt64, through seq: UInt64) {
        lastMissedSeq = missed > 0 ? max(lastMissedSeq, seq) : seq
        missed += events
    }

    private func queueGap(now: UInt64) {
        let gap = gapBytes(now: now)
        append(gap[...], seq: lastMissedSeq, events: missed)
        missed = 0
    }
}
