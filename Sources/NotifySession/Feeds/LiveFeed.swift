import Foundation
package import NotifyWire
package import NotifyTraceViewer
import NotifySystem

/// Reads a live trace on its own thread and hands events to the run loop in batches.
///
/// The reader thread only decodes and enqueues; the run loop drains the inbox once per tick and
/// is the only owner of the model. Collection therefore never waits for drawing,
/// and a paused screen still receives every event.
///
/// Bounded: the inbox holds at most `maximumQueuedEvents` events. A stream faster than the run
/// loop folds it (a flooding producer, a stalled screen) loses what does not fit: those events are
/// counted and handed on as one gap line (`TraceGapReason.inboxFull`) once there is room again,
/// so the header's lost count and the events view say what was lost and why. Definitions, gap and
/// end lines are kept while the inbox holds less than twice the bound.
package final class LiveFeed: Sendable {
    private struct Inbox {
        /// Batches read and not yet drained, oldest first. Batches move whole between the threads,
        /// so no event is copied (and no string retained and released again) on the way.
        var batches: [[TraceEvent]] = []
        /// Events in ``batches``.
        var queued = 0
        /// Events dropped since the last gap line was handed on, and the newest time among them.
        var dropped: UInt64 = 0
        var droppedAt: UInt64 = 0
        /// Emptied batches the run loop hands back, so the reader reuses their storage.
        var spares: [[TraceEvent]] = []
        var end: TraceStreamEnd?
        var messages: [String] = []
        /// Lines skipped as undecodable since the stream began.
        var skipped = 0
        var stop = false
        var finished = false
    }

    /// The reader, touched only by the reader thread once started (and after it finished).
    private final class ReaderBox: @unchecked Sendable {  // handed over to one thread at a time; see LiveFeed.stop()
        let reader: TraceReader
        init(_ reader: TraceReader) { self.reader = reader }
    }

    /// The inbox both threads share.
    private typealias Shared = LockedValue<Inbox>

    private let shared = Shared(Inbox())
    private let box: ReaderBox
    /// Where the events come from, for the header.
    package let origin: String
    /// The reader's recording (`--record`), for its outcome; written by the reader thread only.
    package let recorder: TraceRecorder?

    /// Starts reading `reader` on a new thread; at most `maximumQueuedEvents` events wait for the
    /// run loop (see the type's description).
    package init(reader: TraceReader, maximumQueuedEvents: Int = LiveFeed.defaultMaximumQueuedEvents) {
        box = ReaderBox(reader)
        origin = reader.origin
        recorder = reader.recorder
        let limit = max(1, maximumQueuedEvents)
        let thread = Thread { [box, shared] in Self.readLoop(box.reader, shared: shared, limit: limit) }
        thread.name = "notifytop-reader"
        thread.start()
    }

    /// Events waiting for the run loop at most, by default: some 10 MB.
    package static let defaultMaximumQueuedEvents = 65_536

    private static func readLoop(_ reader: TraceReader, shared: Shared, limit: Int) {
        let inbox = shared
        reader.onMalformedLine = { message in
            inbox.withLock { inbox in
                inbox.skipped += 1
                if inbox.messages.count < Self.maximumMessages { inbox.messages.append(message) }
            }
        }
        // Batches grow as events come (and keep their storage as spares): a quiet stream's stay small.
        var batch: [TraceEvent] = []
        /// Hands the batch over (whole, with a spare to refill) and returns whether to stop; over
        /// the bound, drops and counts it instead. `closing` hands on the count even when full.
        func flush(closing: Bool = false) -> Bool {
            var (next, stop) = inbox.withLock { inbox -> ([TraceEvent]?, Bool) in
                if inbox.queued + batch.count > limit {
                    Self.drop(&batch, from: &inbox, keepingLines: inbox.queued < 2 * limit)
                }
                if inbox.dropped > 0, inbox.queued < limit || closing {
                    let gap = TraceGap(seq: 0, timestamp: inbox.droppedAt, count: inbox.dropped, reason: .inboxFull)
                    inbox.batches.append([.gap(gap)])
                    inbox.queued += 1
                    inbox.dropped = 0
                }
                guard !batch.isEmpty else { return (nil, inbox.stop) }
                inbox.queued += batch.count
                inbox.batches.append(batch)
                return (inbox.spares.popLast() ?? [], inbox.stop)
            }
            if next != nil {
                swap(&batch, &next!)
                next = nil
            }
            return stop
        }
        var bytesAtLastIdle = 0
        var lastIdle = CPUMeter.wallNanoseconds()
        while true {
            // Decoded straight into the batch: an event is not moved again until the fold takes it.
            let room = Self.batchSize - batch.count
            switch reader.next(appendingTo: &batch, limit: room, timeoutMilliseconds: batch.isEmpty ? 100 : 0) {
            case .events:
                if batch.count >= Self.batchSize, flush() { return finish(reader, inbox) }
            case .idle:
                let caughtUp = !batch.isEmpty
                if flush() { return finish(reader, inbox) }
                // Everything sent so far is read: let the next bytes gather for a moment, so a
                // busy stream costs one wake-up every few milliseconds, not one per write. Only
                // while what arrives meanwhile fits well within the socket: faster streams are
                // read as they come, so the pause never holds the producer back.
                let now = CPUMeter.wallNanoseconds()
                if caughtUp {
                    let bytes = Double(reader.byteCount - bytesAtLastIdle)
                    let expected = bytes * Double(Self.gatherMicroseconds) * 1_000 / Double(max(1, now - lastIdle))
                    if expected <= Double(Self.gatherLimit) { usleep(Self.gatherMicroseconds) }
                }
                bytesAtLastIdle = reader.byteCount
                lastIdle = now
            case .ended(let end):
                _ = flush(closing: true)
                inbox.withLock { $0.end = end }
                return finish(reader, inbox)
            }
        }
    }

    /// Counts the batch's events as lost and empties it, keeping (when `keepingLines`) the lines
    /// the fold cannot do without: definitions and headers, gap and end lines. A dropped gap
    /// line's own count is lost with it and counted.
    private static func drop(_ batch: inout [TraceEvent], from inbox: inout Inbox, keepingLines: Bool) {
        var lost: UInt64 = 0
        var newest = inbox.droppedAt
        batch.removeAll { event in
            switch event {
            case .gap(let gap):
                if keepingLines { return false }
                lost &+= gap.count
            case .end:
                if keepingLines { return false }
            default:
                if event.seq != nil {
                    lost &+= 1
                } else if keepingLines {
                    return false
                }
            }
            if let time = event.timestamp, time > newest { newest = time }
            return true
        }
        inbox.droppedAt = newest
        inbox.dropped &+= lost
    }

    /// Flushes the recording; one the session stopped while the stream went on (the user quit)
    /// ends with a line saying so.
    private static func finish(_ reader: TraceReader, _ inbox: Shared) {
        reader.endRecordingStoppedByUser()
        reader.recorder?.flush()
        inbox.withLock { $0.finished = true }
    }

    /// Hands every batch of events read since the last call to `body`, oldest first, for it to
    /// take the events out; returns the end of the stream once it came and any messages about
    /// malformed lines.
    package func drain(_ body: (inout [[TraceEvent]]) -> Void) -> (end: TraceStreamEnd?, messages: [String]) {
        var (batches, end, messages) = shared.withLock { inbox in
            let result = (inbox.batches, inbox.end, inbox.messages)
            inbox.batches.removeAll(keepingCapacity: true)
            inbox.queued = 0
            inbox.messages.removeAll()
            return result
        }
        guard !batches.isEmpty else { return (end, messages) }
        body(&batches)
        for index in batches.indices { batches[index].removeAll(keepingCapacity: true) }
        shared.withLock { inbox in
            inbox.spares.append(contentsOf: batches.prefix(max(0, Self.maximumSpares - inbox.spares.count)))
        }
        return (end, messages)
    }

    /// Lines the stream sent that could not be decoded and were skipped, so far.
    package var skippedLineCount: Int { shared.withLock { $0.skipped } }

    /// Messages about skipped lines kept between two drains; a garbage stream's others are only counted.
    private static let maximumMessages = 256
    /// Events per batch handed from the reader to the run loop.
    private static let batchSize = 1_024
    /// Emptied batches kept for reuse; more would only hold memory after a burst (and 64 streams
    /// of the overview hold theirs).
    private static let maximumSpares = 2
    /// How long the reader waits, once caught up, before reading again: far below a frame.
    private static let gatherMicroseconds: UInt32 = 3_000
    /// The most bytes a pause may let gather: well under what a Unix socket holds (about 200 KiB).
    private static let gatherLimit = 64 * 1024

    /// Asks the reader thread to stop and waits (up to a second) until it has flushed any recording.
    package func stop() {
        let inbox = shared
        inbox.withLock { $0.stop = true }
        for _ in 0..<100 where !inbox.withLock({ $0.finished }) {
            usleep(10_000)
        }
    }
}

extension TraceGapReason {
    /// Events notifytop read from the stream and dropped before folding them: its run loop fell
    /// behind its own reader (a flooding stream or a stalled screen) and the bounded inbox was
    /// full. Never sent; a session synthesizes it.
    package static let inboxFull: TraceGapReason = "viewer-inbox-full"
}
