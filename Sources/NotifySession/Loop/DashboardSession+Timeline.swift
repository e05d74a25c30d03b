import NotifyTUI
import NotifyWire

extension DashboardSession {
    /// `export perfetto`: the session's events so far as a Perfetto timeline. While the session
    /// keeps every event (its first ``SessionRecorder/Memory/sessionHistoryLimit`` events, as `r`
    /// does for an exact prelude) that is all of them since attaching (or since a replay began);
    /// past that, the definitions and live registrations, then the Events view's tail only.
    func exportTimeline() {
        guard let prelude = memory.prelude() else {
            status.message = "nothing to export yet: no trace header received"
            return
        }
        let covers: String
        var events = prelude
        if memory.historyIsComplete {
            covers = "every event since the stream began"
        } else {
            events += tail.events
            covers = "the last \(tail.count) events (the session no longer keeps the earlier ones)"
        }
        do {
            let (path, counts) = try exporter.timeline(events)
            status.message = "saved the timeline to \(path): \(covers)"
            logAction(.export, "saved a Perfetto timeline of \(covers) to \(path): " + PerfettoExport.summary(counts))
        } catch {
            status.message = "cannot save the timeline: \(error)"
            logAction(.export, status.message ?? "")
        }
    }
}
