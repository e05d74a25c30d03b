import Foundation
import NotifyWire
@testable import NotifySystem
@testable import NotifyTraceViewer

/// What one viewer's stream says about loss: events received, events its gaps count as lost, and
/// every place where `seq` is not accounted for.
struct StreamAccount {
    var posts = 0
    var deliveries = 0
    /// Numbered lines that stand for one event each (not threads, gaps, clock lines or the end).
    var events = 0
    var lost: UInt64 = 0
    var lostInRing: UInt64 = 0
    var viewerBehindGaps: [TraceGap] = []
    var end: TraceEnd?
    /// `seq` must strictly increase; it may skip only as far as a `viewer-behind` gap counts.
    var unaccountedSeq: [String] = []
    var decreasingSeq = 0
    /// Posts whose object no `obj` line introduced.
    var undefinedObjects = 0

    init(_ stream: [TraceEvent]) {
        var previous: UInt64?
        var objects = Set<UInt64>()
        for event in stream {
            switch event {
            case .posted(let post):
                posts += 1
                if let object = post.object, !objects.contains(object) { undefinedObjects += 1 }
            case .delivered: deliveries += 1
            case .object(let object): objects.insert(object.id)
            case .gap(let gap):
                lost += gap.count
                if gap.reason == .bufferFull { lostInRing += gap.count } else { viewerBehindGaps.append(gap) }
            case .end(let value): end = value
            default: break
            }
            switch event {
            case .thread, .gap, .end, .tick, .header, .type, .object, .callsite, .history, .siteCount, .unknown: break
            default: events += 1
            }
            guard let seq = event.seq else { continue }
            if let previous {
                if seq <= previous { decreasingSeq += 1 }
                let step: UInt64 = if let gap = event.gap, gap.reason == .viewerBehind { gap.count } else { 1 }
                if seq != previous &+ step {
                    unaccountedSeq.append("\(previous) -> \(seq) at \(event.kind.map { "\($0)" } ?? "?")")
                }
            }
            previous = seq
        }
    }
}

/// Reads a stream on its own thread, pausing whenever asked, until it ends.
final class BackgroundViewer: @unchecked Sendable {  // `state` is locked; `reader` belongs to the thread
    private let reader: TraceReader
    private let state = LockedValue((events: [TraceEvent](), paused: false, done: false))

    init(_ reader: TraceReader, paused: Bool = false) {
        self.reader = reader
        state.withLock { $0.paused = paused }
        let thread = Thread { [self] in run() }
        thread.start()
    }

    var paused: Bool {
        get { state.withLock { $0.paused } }
        set { state.withLock { $0.paused = newValue } }
    }

    var postCount: Int { state.withLock { $0.events.lazy.filter { $0.postName != nil }.count } }

    /// Every event read so far.
    var events: [TraceEvent] { state.withLock { $0.events } }

    /// Waits (at most `seconds`) for the stream to end; returns every event read.
    func finish(seconds: Double = 60) -> [TraceEvent] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !state.withLock({ $0.done }) && Date() < deadline { usleep(5_000) }
        return state.withLock { $0.events }
    }

    private func run() {
        while true {
            if state.withLock({ $0.paused }) {
                usleep(2_000)
                continue
            }
            switch reader.next(timeoutMilliseconds: 20) {
            case .event(let event): state.withLock { $0.events.append(event) }
            case .idle: continue
            case .ended:
                state.withLock { $0.done = true }
                return
            }
        }
    }
}
