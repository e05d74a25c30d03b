import NotifyModel
import NotifySystem
import NotifyTUI

extension DashboardSession {
    /// Starts on the overview of `overview`'s processes on the host named `hostName`.
    package func show(_ overview: ProcessOverview, on hostName: String) {
        self.overview = overview
        overview.refresh()
        view.showsOverview = true
        status.source = "processes on \(hostName)"
        logAction(.attach, "watching \(overview.pids.count) processes on \(hostName)")
    }

    /// Lists and folds the overview's processes; follows the attached process to its restart
    /// (a newer process of the same name) once its stream ended.
    func pollOverview(now: UInt64) {
        guard let overview else { return }
        overview.poll(now: now)
        if let (pid, failure) = overview.finishOpening() {
            if let failure {
                status.message = failure.description
                logAction(.note, failure.description)
            } else {
                // What Enter asked for, now that it can be done.
                attach(pid: pid, now: now)
                if attachedProcess?.pid == pid {
                    view.showsOverview = false
                    status.message = "attached to pid \(pid)"
                }
            }
        }
        if overview.overLimit != overviewNotShownLogged {
            overviewNotShownLogged = overview.overLimit
            logAction(
                .note,
                overview.overLimit == 0
                    ? "every listed process is shown again"
                    : OverviewView.omittedText(data) ?? "")
        }
        if ended, let cutOff = reconnectingAfterCutOff, let attached = attachedProcess {
            takeReopened(attached, after: cutOff, now: now)
        } else if ended, let attached = attachedProcess, let restarted = overview.restart(of: attached.name) {
            attach(pid: restarted, now: now)
            status.message = "reattached to pid \(restarted)"
        }
    }

    /// Points the views at one of the overview's processes: the session takes over its stream and
    /// fold, and hands the previous process's back to the overview, so no figure is lost or
    /// counted twice.
    package func attach(pid: Int32, now: UInt64) {
        guard let overview, attachedProcess?.pid != pid else { return }
        if overview.needsOpening(pid) {
            // The probes take seconds to attach: the screen goes on meanwhile, and the views
            // switch to the process once its stream is open (see pollOverview).
            view.showsOverview = true
            status.message =
                overview.startOpening(pid)
                ? "attaching to pid \(pid)…" : "still attaching to pid \(overview.openingPid.map(String.init) ?? "")…"
            return
        }
        guard overview.canTake(pid) else {
            view.showsOverview = true
            status.message = "process \(pid) cannot be attached (it left, or its stream failed)"
            return
        }
        handBack()  // first: the overview takes the previous process's fold back under its own pid
        guard let entry = overview.take(pid), let feed = entry.feed else { return }
        source = .live(feed)
        model = entry.model
        tail = entry.tail
        memory = entry.memory
        memory.setHistoryLimit(SessionRecorder.Memory.sessionHistoryLimit)
        frozen = nil
        view.paused = false
        status.eventsWhilePaused = nil
        ended = entry.ended != nil
        status.mode = entry.ended.map { .ended($0) } ?? .live
        status.source = feed.origin
        attachedProcess = (pid, entry.process.name)
        attachedAt = now
        uptimeAtAttach = entry.process.uptimeSeconds
        logAction(.attach, "attached to pid \(pid) (\(entry.process.name))")
        dropRegistrationMarkOfAnotherProcess()
        if let probes = (overview.host as? FoundationHost)?.probes(of: pid) { watchProbes(probes) }
    }

    /// Takes over the attached process's new stream once the overview has opened it again after
    /// a cut-off: a fresh model, from its snapshot.
    private func takeReopened(_ attached: (pid: Int32, name: String), after cutOff: CutOffLoss, now: UInt64) {
        guard let overview, let entry = overview.take(attached.pid), let feed = entry.feed else { return }
        source = .live(feed)
        resetFold()
        view.forgetProcess()
        frozen = nil
        view.paused = false
        status.eventsWhilePaused = nil
        ended = false
        reconnectingAfterCutOff = nil
        status.mode = .live
        status.source = feed.origin
        attachedAt = now
        uptimeAtAttach = entry.process.uptimeSeconds
        reconnected(to: "pid \(attached.pid)", origin: feed.origin, after: cutOff)
    }

    /// Gives the attached process's fold back to the overview (or stops its stream, when the
    /// process has left the overview).
    private func handBack() {
        guard let overview, let attached = attachedProcess else { return }
        var endedText: String?
        if case .ended(let text) = status.mode { endedText = text }
        stopRecording(byUser: true)  // a recording is of one process
        if !overview.follows(attached.pid) { stopFeed() }
        overview.giveBack(model: model, tail: tail, memory: memory, ended: endedText, cutOff: reconnectingAfterCutOff)
        reconnectingAfterCutOff = nil
        attachedProcess = nil
        source = .fixed([])
        if probes != nil { unwatchProbes() }
    }
}
