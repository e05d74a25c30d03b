import Foundation
import NotifyEvents
import NotifyTrace

/// Reads a live trace on its own thread and hands events to the run loop in batches.
///
/// The reader thread only decodes and enqueues; the run loop drains the inbox once per tick and
/// is the only owner of the model (style.md §3.2). Collection therefore never waits for drawing,
/// and a paused screen still receives every event.
public final class LiveFeed: Sendable {
    private struct Inbox {
        var events: [TraceEvent] = []
        var end: TraceStreamEnd?
        var messages: [String] = []
        var stop = false
        var finished = false
    }

    /// The reader, touched only by the reader thread once started (and after it finished).
    private final class ReaderBox: @unchecked Sendable {  // handed over to one thread at a time; see LiveFeed.stop()
        let reader: TraceReader
        init(_ reader: TraceReader) { self.reader = reader }
    }

    /// The inbox behind a pthread lock (NSLock), in a class so both threads share it.
    /// Not `Synchronization.Mutex`: ThreadSanitizer cannot see it on Linux (linux-notes.md).
    private final class Shared: @unchecked Sendable {  // `lock` guards `inbox`
        private let lock = NSLock()
        private var inbox = Inbox()

        func withLock<Result>(_ body: (inout Inbox) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&inbox)
        }
    }

    private let shared = Shared()
    private let box: ReaderBox
    /// Where the events come from, for the header.
    public let origin: String

    /// Starts reading `reader` on a new thread.
    public init(reader: TraceReader) {
        box = ReaderBox(reader)
        origin = reader.origin
        let thread = Thread { [box, shared] in Self.readLoop(box.reader, shared: shared) }
        thread.name = "notifytop-reader"
        thread.start()
    }

    private static func readLoop(_ reader: TraceReader, shared: Shared) {
        let inbox = shared
        reader.onMalformedLine = { message in inbox.withLock { $0.messages.append(message) } }
        var batch: [TraceEvent] = []
        batch.reserveCapacity(1_024)
        func flush() {
            guard !batch.isEmpty else { return }
            inbox.withLock { $0.events.append(contentsOf: batch) }
            batch.removeAll(keepingCapacity: true)
        }
        while !inbox.withLock({ $0.stop }) {
            switch reader.next(timeoutMilliseconds: batch.isEmpty ? 100 : 0) {
            case .event(let event):
                batch.append(event)
                if batch.count >= 1_024 { flush() }
            case .idle:
                flush()
            case .ended(let end):
                flush()
                inbox.withLock { $0.end = end }
                reader.recorder?.flush()
                inbox.withLock { $0.finished = true }
                return
            }
        }
        flush()
        reader.recorder?.flush()
        inbox.withLock { $0.finished = true }
    }

    /// Takes every event read since the last call, with the end of the stream once it came and any
    /// messages about malformed lines.
    public func drain() -> (events: [TraceEvent], end: TraceStreamEnd?, messages: [String]) {
        shared.withLock { inbox in
            let result = (inbox.events, inbox.end, inbox.messages)
            inbox.events.removeAll(keepingCapacity: true)
            inbox.messages.removeAll()
            return result
        }
    }

    /// Asks the reader thread to stop and waits (up to a second) until it has flushed any recording.
    public func stop() {
        let inbox = shared
        inbox.withLock { $0.stop = true }
        for _ in 0..<100 where !inbox.withLock({ $0.finished }) {
            usleep(10_000)
        }
    }
}
