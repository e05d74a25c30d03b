#if canImport(Glibc)
import Glibc
#endif
import NotifyModel
import NotifyTUI

/// `--batch`: frames as plain text on standard output, like `top -b`, flushed after each one so
/// a pipe sees them as they come (nvtop#402). Also the fallback when there is no usable terminal.
/// With `json`, each frame is one line of JSON (``BatchJSON``) instead. `moreViews` are printed
/// in each frame after the session's view (`--view names,threads,leaks`).
enum BatchPrinter {
    /// Prints `iterations` frames, one redraw delay apart (the first after one delay of collecting,
    /// or after a whole replay has been read when it plays at full speed).
    static func run(
        _ session: DashboardSession, iterations: Int, size: Size, glyphs: Glyphs, isReplay: Bool,
        json: Bool = false, moreViews: [ViewID] = []
    ) -> DashboardSession.Exit {
        for iteration in 0..<max(1, iterations) {
            if let signal = session.pendingSignal() { return .signal(signal) }
            let deadline = CPUMeter.wallNanoseconds() + UInt64(session.status.delayMilliseconds) * 1_000_000
            repeat {
                session.poll(now: CPUMeter.wallNanoseconds())
                if session.isEnded { break }
                if let signal = session.pendingSignal() { return .signal(signal) }
                usleep(20_000)
            } while CPUMeter.wallNanoseconds() < deadline || (isReplay && session.isFastReplay && !session.isEnded)
            let text =
                json && session.view.showsOverview && session.overview != nil
                ? BatchJSON.overviewLine(session.data, view: session.view, iteration: iteration + 1) + "\n"
                : json
                    ? BatchJSON.line(session.data, view: session.view, more: moreViews, iteration: iteration + 1) + "\n"
                    : (iteration > 0 ? "\n" : "") + frames(session, moreViews: moreViews, size: size, glyphs: glyphs)
            guard write(text) else { return .outputClosed }
        }
        return .frames
    }

    /// The session's view as text, then each of `moreViews` (as it opens by default), a blank line apart.
    static func frames(_ session: DashboardSession, moreViews: [ViewID], size: Size, glyphs: Glyphs) -> String {
        var text = session.render(size: size, glyphs: glyphs).plainText + "\n"
        let shown = session.view
        for view in moreViews where view != shown.view {
            var state = ViewState(view: view)
            state.theme = shown.theme
            session.view = state
            text += "\n" + session.render(size: size, glyphs: glyphs).plainText + "\n"
        }
        session.view = shown
        return text
    }

    /// True when open findings of `severity` or worse exist.
    static func hasFindings(_ model: InspectorState, atLeast severity: LeakSeverity) -> Bool {
        model.findings.contains { $0.isOpen && $0.severity >= severity }
    }

    /// Writes all of `text` to standard output; false when it is closed (or fails), so the batch
    /// ends instead of computing frames nobody reads. Needs SIGPIPE ignored, as
    /// ``NotifyTopRunner`` does, to see EPIPE rather than be killed by the signal.
    static func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
