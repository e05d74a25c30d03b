import NotifyModel
import NotifySystem
import NotifyTraceViewer
import NotifyTUI

extension DashboardSession {
    /// Stops reading the current live target, if any (at exit: the target may be a reattached one).
    package func stopFeed() {
        if case .live(let feed) = source { feed.stop() }
    }

    /// The stream ended: keep what is on screen and, if the target may come back, start looking.
    func streamEnded(_ end: TraceStreamEnd, now: UInt64) {
        guard let reattacher, Reattacher.mayRestart(after: end) else { return }
        waitingForRestart = end
        let target =
            switch reattacher.match {
            case .processName(let name): name
            case .socket(let path): path
            }
        status.mode = .ended("\(end); waiting for \(target) to restart")
        logAction(.stream, "stream ended (\(end)); waiting for \(target) to restart")
        nextRestartCheck = now
    }

    /// Looks for the restarted target a few times a second; on finding it, attaches and starts a
    /// fresh model.
    ///
    /// Why fresh rather than continuing: a new process numbers its registrations, threads and
    /// objects from 1 again, so folding it into the old state would merge unrelated rows; and the
    /// leak rules reason about one process's lifetime. The old state stays on screen until then.
    func lookForRestart(now: UInt64) {
        guard let end = waitingForRestart, now >= nextRestartCheck, var finder = reattacher else { return }
        nextRestartCheck = now &+ 250_000_000
        let found = finder.attempt(after: end)
        reattacher = finder
        guard let found else { return }
        stopFeed()
        let feed = LiveFeed(reader: found.reader)
        source = .live(feed)
        resetFold()
        view.forgetProcess()
        ended = false
        waitingForRestart = nil
        status.mode = .live
        status.source = feed.origin
        attachedAt = now
        uptimeAtAttach = found.process?.uptimeSeconds
        let who = found.process.map { "pid \($0.pid)" } ?? feed.origin
        status.message = "reattached to \(who)"
        logAction(.reconnect, "reattached to \(who) (\(feed.origin)); a fresh model starts")
        if let note = found.note { logAction(.recording, note) }
    }
}
