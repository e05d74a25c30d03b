import NotifyModel
import NotifyTUI
import NotifyWire

extension DashboardSession {
    /// `b`: marks the registrations live now, for Names' SINCE column and Observers' `+#`/`−#`.
    func markRegistrations() {
        let mark = RegistrationMark(model)
        status.registrationMark = mark
        status.message = "marked \(mark.live.count) live registrations: Names and Observers show +N/−M since"
    }

    /// Keeps the `b` mark while the stream is of the process it was taken in: a seek folds the
    /// same recording again and a reconnect to the same process keeps its registration ids, so
    /// the mark still compares against the same set. Another process numbers its registrations
    /// afresh: the mark is cleared, and the status line and the log say so.
    func dropRegistrationMarkOfAnotherProcess() {
        guard let mark = status.registrationMark, let header = model.header,
            mark.isOfAnotherProcess(than: header)
        else { return }
        status.registrationMark = nil
        let was = mark.process.map { "\($0)" } ?? "another process"
        let text =
            "b mark cleared: it was of \(was), now pid \(header.pid) (\(header.process)), "
            + "which numbers its registrations afresh"
        status.message = text
        logAction(.note, text)
    }
}
