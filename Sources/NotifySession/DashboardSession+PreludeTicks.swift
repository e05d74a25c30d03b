import NotifyEvents
import NotifyModel

extension DashboardSession {
    /// Stream time between the ticks a replay gives a recording's prelude: about as often as a
    /// live session polls.
    static let preludeTickSpacing: UInt64 = 250_000_000

    /// Folds a replay's events. A mid-session recording opens with what the session saw before
    /// (lines older than its header's clock), all due at once; those are ticked at their own
    /// times, on a fixed grid of stream time, as the live session was ticked while they arrived,
    /// so its automatic checkpoints (growth samples, never-posted waits) happen again.
    func ingestReplay(_ events: [TraceEvent]) {
        var base = model.header?.clockMono
        var start = 0
        var lastGridCell = model.now / Self.preludeTickSpacing
        for index in events.indices {
            if case .header(let header) = events[index], base == nil { base = header.clockMono }
            guard let time = events[index].timestamp, let base, time < base else { continue }
            let cell = time / Self.preludeTickSpacing
            guard cell > lastGridCell else { continue }
            lastGridCell = cell
            ingest(Array(events[start...index]))
            model.tick(now: time)
            start = index + 1
        }
        if start < events.count { ingest(Array(events[start...])) }
    }
}
