import NotifyModel
import NotifySystem
import NotifyTraceViewer
import NotifyTUI
import NotifyWire

extension DashboardSession {
    /// Stops reading the current live target, if any (at exit: the target may be a reattached one).
    package func stopFeed() {
        if case .live(let feed) = source { feed.stop() }
    }

    /// The stream ended: say how, keep what is on screen and, if the target may come back, start
    /// looking. A process that cut this viewer off (or closed its connection while still running)
    /// is connected to again at once; "exited" and "killed or crashed" are said only of a process
    /// that is gone.
    func streamEnded(_ end: TraceStreamEnd, now: UInt64) {
        let runs = reattacher?.processRuns()
        let pid = reattacher?.lastPid ?? model.header?.pid
        let sameProcess: Bool
        let text: String
        switch end {
        case .cutOff:
            sameProcess = runs != false
            text = end.description
        case .disconnected where runs == true:
            sameProcess = true
            text = "connection closed without an end line by pid \(pid ?? 0), which still runs"
        case .disconnected where runs == false:
            sameProcess = false
            text = "process \(pid ?? 0) gone without an end line (killed or crashed)"
        default:
            sameProcess = false
            text = end.description
        }
        logAction(.stream, "stream ended: \(text)")
        status.mode = .ended(text)
        model.setStream(.ended(text))
        if sameProcess, case .cutOff(let line) = end, let missed = line.missedEvents, missed > 0 {
            logAction(.loss, "\(missed) events lost: \(text)")
        }
        if sameProcess, reattacher == nil, let overview, let attached = attachedProcess {
            // Attached from the overview: its next look opens the process again.
            reconnectingAfterCutOff = CutOffLoss(
                text: text, lost: model.eventsLost, lostBehind: model.eventsLostBehind)
            stopFeed()
            overview.reopen(attached.pid)
            status.mode = .ended("\(text); reconnecting to pid \(attached.pid)")
            logAction(.reconnect, "reconnecting to pid \(attached.pid) for a fresh snapshot")
            return
        }
        guard let reattacher else { return }
        if sameProcess {
            waitingForRestart = end
            reconnectingAfterCutOff = CutOffLoss(
                text: text, lost: model.eventsLost, lostBehind: model.eventsLostBehind)
            let target = pid.map { "pid \($0)" } ?? status.source
            status.mode = .ended("\(text); reconnecting to \(target)")
            logAction(.reconnect, "reconnecting to \(target) for a fresh snapshot")
            nextRestartCheck = now
            return
        }
        guard reattacher.followsRestarts, Reattacher.mayRestart(after: end) else { return }
        waitingForRestart = end
        let target =
            switch reattacher.match {
            case .processName(let name): name
            case .socket(let path): path
            }
        status.mode = .ended("\(text); waiting for \(target) to restart")
        logAction(.stream, "stream ended (\(text)); waiting for \(target) to restart")
        nextRestartCheck = now
    }

    /// Looks for the restarted target a few times a second (after a cut-off: for the same
    /// process); on finding it, attaches and starts a fresh model.
    ///
    /// Why fresh rather than continuing: a new process numbers its registrations, threads and
    /// objects from 1 again, so folding it into the old state would merge unrelated rows; and the
    /// leak rules reason about one process's lifetime. The same process sends a fresh snapshot,
    /// whose figures already hold what the old state had. The old state stays on screen until then.
    func lookForRestart(now: UInt64) {
        guard let end = waitingForRestart, now >= nextRestartCheck, var finder = reattacher else { return }
        nextRestartCheck = now &+ 250_000_000
        if let cutOff = reconnectingAfterCutOff, finder.processRuns() == false {
            // The process that cut this viewer off has exited since: follow its restart, if at all.
            reconnectingAfterCutOff = nil
            let gone = "\(cutOff.text); process \(finder.lastPid ?? 0) has exited since"
            logAction(.stream, gone)
            guard finder.followsRestarts else {
                waitingForRestart = nil
                status.mode = .ended(gone)
                return
            }
            waitingForRestart = .processExited
            let target =
                switch finder.match {
                case .processName(let name): name
                case .socket(let path): path
                }
            status.mode = .ended("\(gone); waiting for \(target) to restart")
            return
        }
        let cutOff = reconnectingAfterCutOff
        let found = finder.attempt(after: end, sameProcess: cutOff != nil)
        reattacher = finder
        guard let found else { return }
        stopFeed()
        let feed = LiveFeed(reader: found.reader)
        source = .live(feed)
        if let recording = feed.recorder { restartRecordings.append(recording) }
        resetFold()
        view.forgetProcess()
        ended = false
        waitingForRestart = nil
        reconnectingAfterCutOff = nil
        status.mode = .live
        status.source = feed.origin
        attachedAt = now
        uptimeAtAttach = found.process?.uptimeSeconds
        // The same process after a cut-off: its pid, even where the target is a socket (`--demo`).
        let pid = found.process?.pid ?? (cutOff != nil ? finder.lastPid : nil)
        let who = pid.map { "pid \($0)" } ?? feed.origin
        if let cutOff {
            reconnected(to: who, origin: feed.origin, after: cutOff)
        } else {
            status.message = "reattached to \(who)"
            logAction(.reconnect, "reattached to \(who) (\(feed.origin)); a fresh model starts")
        }
        if let note = found.note { logAction(.recording, note) }
    }

    /// The fresh model goes on counting what the cut-off stream lost; the screen says why it
    /// reconnected.
    func reconnected(to who: String, origin: String, after cutOff: CutOffLoss) {
        ingest(cutOff.carriedGaps)
        status.message = "reconnected to \(who) (\(cutOff.text))"
        logAction(
            .reconnect,
            "reconnected to \(who) (\(origin)); a fresh model starts from its snapshot, "
                + "counting the \(cutOff.lost) events lost before")
    }
}
