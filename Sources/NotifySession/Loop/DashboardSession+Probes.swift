import NotifyFoundationProbe
import NotifyTUI

/// `--foundation --pid`'s two modes: figures counted in the kernel, or every event as a line.
/// `P` switches between them by restarting bpftrace with the other program; the app goes on.
extension DashboardSession {
    /// Follows `probes`: the header's badge says its mode, the log its start.
    func watchProbes(_ probes: FoundationProbeSession) {
        self.probes = probes
        showProbeMode()
        if probes.mode == .counting { status.message = Self.countingNote }
    }

    /// What counting leaves to event mode, said where the user looks.
    static let countingNote =
        "probes count in the kernel: handler durations, R7, cascades and the Events view wait for event mode (P)"

    func toggleProbeMode() {
        guard let probes else {
            status.message =
                "P switches the probes of --foundation --pid (processes attached from the overview run in event mode)"
            return
        }
        guard recorder == nil || probes.mode == .counting else {
            status.message = "recording keeps every event: stop the recording (r) before counting"
            return
        }
        let next = probes.mode.other
        probes.switchMode(to: next)
        status.message = "probes: switching to \(next.label) (bpftrace restarts; the app goes on)"
        logAction(.attach, "probes switched to \(next.label)")
    }

    /// The header's badge: the mode the probes run, with the one asked for while bpftrace restarts.
    func showProbeMode() {
        guard let probes else { return }
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
