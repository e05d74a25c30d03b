package import NotifyFoundationProbe
import NotifyTUI

/// `--foundation --pid`'s two modes: figures counted in the kernel, or every event as a line.
/// `P` switches between them: bpftrace starts the other program, which takes over once attached;
/// the app goes on, seen throughout.
extension DashboardSession {
    /// Follows `probes`: the header's badge says its mode, the log its start.
    package func watchProbes(_ probes: FoundationProbeSession) {
        self.probes = probes
        showProbeMode()
        if probes.mode == .counting { status.message = Self.countingNote }
    }

    /// The views leave the probed process (back to the overview's list): its probes go on, in
    /// their mode, and `P` has none to switch until another is attached.
    func unwatchProbes() {
        probes = nil
        status.probeMode = nil
    }

    /// What counting leaves to event mode, said where the user looks.
    static let countingNote =
        "probes count in the kernel: handler durations, R7, cascades and the Events view wait for event mode (P)"

    func toggleProbeMode() {
        guard let probes else {
            status.message = "P switches the probes of the process --foundation watches: attach one first"
            return
        }
        guard recorder == nil || probes.mode == .counting else {
            status.message = "recording keeps every event: stop the recording (r) before counting"
            return
        }
        let next = probes.mode.other
        probes.switchMode(to: next)
        status.message = "probes: switching to \(next.label) (the new probes attach beside the running ones)"
        logAction(.attach, "probes switched to \(next.label)")
    }

    /// The header's badge: the mode the probes run, with the one asked for while bpftrace restarts.
    func showProbeMode() {
        guard let probes else { return }
        if let failure = probes.takeSwitchFailure() { status.message = failure }
        let running = probes.mode
        let requested = probes.requestedMode
        status.probeMode =
            running == requested
            ? running.badge : "\(running.badge) → \(requested.badge)"
    }
}

extension ProbeMode {
    /// The header's badge.
    var badge: String { self == .counting ? "COUNTING" : "EVENTS" }
}
