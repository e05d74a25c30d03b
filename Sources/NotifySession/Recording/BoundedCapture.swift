import Glibc
package import NotifyTraceViewer
import NotifyWire

/// `--record FILE` with `--match`, `--limit` or `--timeout` (busctl's capture bounds): records
/// without the dashboard until a bound is reached, then ends the file with an `end` line
/// (`recording-stopped`), as `r` does when the user stops a recording.
///
/// The lines are written as decoded (``CaptureFilter`` picks them), not as the raw bytes a plain
/// `--record` saves, so the file is the same format with only the chosen events, numbered afresh
/// (``CaptureNumbering``) so that what was left out does not read as lost.
package struct BoundedCapture {
    /// Why the capture stopped.
    package enum Stop: Equatable {
        /// `--limit` events were recorded.
        case limit
        /// `--timeout` passed.
        case timeout
        /// The stream ended first (the process exited, or the connection was cut).
        case streamEnded
        /// A signal (Ctrl-C) asked notifytop to stop.
        case signal(Int32)
    }

    /// How a capture ended.
    package struct Outcome: Equatable {
        /// Events counted toward `--limit` that were recorded.
        package var recorded = 0
        /// Events the stream carried that could count (matched or not).
        package var seen = 0
        /// Why it stopped.
        package var stop = Stop.streamEnded
    }

    package var filter: CaptureFilter
    /// Counted events to record at most; nil for no limit.
    package var limit: Int?
    /// Nanoseconds to record at most; nil for no limit.
    package var timeout: UInt64?

    package init(filter: CaptureFilter, limit: Int?, timeout: UInt64?) {
        self.filter = filter
        self.limit = limit
        self.timeout = timeout
    }

    /// The state between lines: what the end line needs, and the counts.
    private struct Progress {
        var outcome = Outcome()
        var numbering = CaptureNumbering()
        var latest: UInt64 = 0
        var ended = false
        var bytes: [UInt8] = []
    }

    /// Records `feed` into `recording` until a bound, the stream's end or `signal` stops it.
    package mutating func run(
        _ feed: LiveFeed, into recording: TraceRecorder, signal: () -> Int32? = { nil },
        now: () -> UInt64 = CPUMeter.wallNanoseconds
    ) -> Outcome {
        let deadline = timeout.map { now() &+ $0 }
        var progress = Progress()
        var stop: Stop?
        while stop == nil {
            let (end, _) = feed.drain { batches in
                for index in batches.indices where stop == nil {
                    for event in batches[index] {
                        if take(event, into: recording, progress: &progress) {
                            stop = .limit
                            break
                        }
                    }
                }
            }
            if stop != nil { break }
            if end != nil {
                stop = .streamEnded
            } else if let number = signal() {
                stop = .signal(number)
            } else if let deadline, now() >= deadline {
                stop = .timeout
            } else {
                usleep(5_000)
            }
        }
        progress.outcome.stop = stop ?? .streamEnded
        if progress.outcome.stop != .streamEnded && !progress.ended {
            progress.bytes.removeAll(keepingCapacity: true)
            let line = TraceEnd(seq: progress.numbering.next, timestamp: progress.latest, reason: .recordingStopped)
            TraceEncoder.encode(.end(line), into: &progress.bytes)
            recording.write(progress.bytes)
        }
        recording.flush()
        return progress.outcome
    }

    /// Writes `event` if the filter keeps it; returns whether the limit is now reached.
    private mutating func take(_ event: TraceEvent, into recording: TraceRecorder, progress: inout Progress) -> Bool {
        progress.numbering.saw(event)
        if let time = event.timestamp { progress.latest = max(progress.latest, time) }
        let verdict = filter.judge(event)
        if Self.countable(event) { progress.outcome.seen += 1 }
        guard verdict != .skip else { return false }
        if case .end = event { progress.ended = true }
        progress.bytes.removeAll(keepingCapacity: true)
        TraceEncoder.encode(progress.numbering.renumber(event), into: &progress.bytes)
        recording.write(progress.bytes)
        guard verdict == .count else { return false }
        progress.outcome.recorded += 1
        return limit.map { progress.outcome.recorded >= $0 } ?? false
    }

    /// Whether `event` is of a kind `--limit` counts.
    static func countable(_ event: TraceEvent) -> Bool {
        switch event {
        case .registered, .removed, .tokenDropped, .removeMissed, .posted, .delivered, .queue, .enqueued, .merged,
            .objectDead:
            true
        default: false
        }
    }

    /// One line for standard error: `recorded 100 of 4213 events to FILE (--limit reached)`.
    package static func summary(_ outcome: Outcome, path: String, limit: Int?, timeout: String?) -> String {
        let why: String
        switch outcome.stop {
        case .limit: why = "--limit \(limit ?? outcome.recorded) reached"
        case .timeout: why = "--timeout \(timeout ?? "") passed"
        case .streamEnded: why = "the stream ended"
        case .signal(let number): why = "stopped by signal \(number)"
        }
        return "recorded \(outcome.recorded) of \(outcome.seen) events to \(path) (\(why))"
    }
}
