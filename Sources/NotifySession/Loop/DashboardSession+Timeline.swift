import NotifyTUI
import NotifyWire

extension DashboardSession {
    /// `export perfetto`: the session's events so far as a Perfetto timeline. While the session
    /// keeps every event (its first ``SessionRecorder/Memory/sessionHistoryLimit`` events, as `r`
    /// does for an exact prelude) that is all of them since attaching (or since a replay began);
    /// past that, a replay reads its whole file again, and a live session has the definitions and
    /// live registrations, then the Events view's tail only.
    func exportTimeline() {
        guard let prelude = memory.prelude() else {
            status.message = "nothing to export yet: no trace header received"
            return
        }
        let covers: String
        let saved: (path: String, counts: PerfettoTraceWriter.Counts)
        do {
            if memory.historyIsComplete {
                covers = "every event since the stream began"
                saved = try exporter.timeline(prelude)
            } else if case .replay(let feed) = source {
                covers = "the whole recording \(feed.origin)"
                saved = try exporter.timeline(recording: feed.origin)
            } else {
                covers = "the last \(tail.count) events (the session no longer keeps the earlier ones)"
                saved = try exporter.timeline(prelude + tail.events)
            }
        } catch {
            status.message = "cannot save the timeline: \(error)"
            logAction(.export, status.message ?? "")
            return
        }
        status.message = "saved the timeline to \(saved.path): \(covers)"
        logAction(
            .export, "saved a Perfetto timeline of \(covers) to \(saved.path): " + PerfettoExport.summary(saved.counts))
    }
}
