#if canImport(Glibc)
import Glibc
#endif
import NotifyModel
import NotifyWire
package import NotifyTUI

/// `--batch`: frames as plain text on standard output, like `top -b`, flushed after each one so
/// a pipe sees them as they come (nvtop#402). Also the fallback when there is no usable terminal.
/// With `json`, each frame is one line of JSON (``BatchJSON``) instead. `moreViews` are printed
/// in each frame after the session's view (`--view names,threads,leaks`). The Leaks view, what a
/// CI gate prints, is a plain table (`leaksTable(_:view:)`) rather than the screen.
package enum BatchPrinter {
    /// Prints `iterations` frames, one redraw delay apart (the first after one delay of collecting,
    /// after what precedes `--from` has been folded, or after a whole replay has been read when it
    /// plays at full speed), and no more once a live
    /// target has ended for good (`--no-reattach`, or a demo child).
    package static func run(
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
                // A fold under way (`--from`, or full speed) goes on without a pause.
                let folding = session.isSeeking || (isReplay && session.isFastReplay)
                if !folding { usleep(20_000) }
            } while CPUMeter.wallNanoseconds() < deadline || session.isSeeking
                || (isReplay && session.isFastReplay && !session.isEnded)
            let text =
                json && session.view.showsOverview && session.overview != nil
                ? BatchJSON.overviewLine(session.data, view: session.view, iteration: iteration + 1) + "\n"
                : json
                    ? BatchJSON.line(session.data, view: session.view, more: moreViews, iteration: iteration + 1) + "\n"
                    : (iteration > 0 ? "\n" : "") + frames(session, moreViews: moreViews, size: size, glyphs: glyphs)
            guard write(text) else { return .outputClosed }
            // A live target that ended (and is not awaited back): its last frame is printed once,
            // not again for every iteration left.
            if session.isEnded && !isReplay { break }
        }
        return .frames
    }

    /// The session's view as text, then each of `moreViews` (as it opens by default), a blank line apart.
    static func frames(_ session: DashboardSession, moreViews: [ViewID], size: Size, glyphs: Glyphs) -> String {
        var text = frame(session, size: size, glyphs: glyphs)
        let shown = session.view
        for view in moreViews where view != shown.view {
            var state = ViewState(view: view)
            state.theme = shown.theme
            session.view = state
            text += "\n" + frame(session, size: size, glyphs: glyphs)
        }
        session.view = shown
        return text
    }

    /// The session's current view as printed: the screen, or the Leaks table.
    private static func frame(_ session: DashboardSession, size: Size, glyphs: Glyphs) -> String {
        if session.view.view == .leaks && session.view.path.isEmpty && !session.view.showsOverview {
            // Rendered all the same, so the session keeps what its table showed.
            _ = session.render(size: size, glyphs: glyphs)
            return leaksTable(session.data, view: session.view)
        }
        return session.render(size: size, glyphs: glyphs).plainText + "\n"
    }

    /// The Leaks view for a log or a CI gate: one line naming the process and how its stream
    /// stands, then every finding (after `--filter` and `--sort`) with its whole text, columns
    /// two spaces apart; no keys, no tabs, no notifytop figures.
    static func leaksTable(_ data: DashboardData, view: ViewState) -> String {
        let model = data.model
        var open: [LeakSeverity: Int] = [:]
        var fixed = 0
        for finding in model.findings {
            if finding.isOpen { open[finding.severity, default: 0] += 1 } else { fixed += 1 }
        }
        let counts = LeakSeverity.allCases.reversed().compactMap { severity in
            open[severity].map { "\($0) \(severity)" }
        }
        let process = model.header.map { "\($0.process) pid \($0.pid)" } ?? "no process yet"
        var state = ""
        switch data.status.mode {
        case .connecting(let text): state = "connecting: \(text)"
        case .live: state = "live"
        case .replay: state = "replaying"
        case .ended(let text): state = "ended: \(text)"
        }
        let source = data.status.source.isEmpty ? "" : ", \(data.status.source)"
        let summary =
            "Leaks of \(process) (\(state)\(source)): "
            + (counts.isEmpty ? "no open findings" : "open " + counts.joined(separator: ", "))
            + (fixed > 0 ? "; \(fixed) fixed" : "")
        let content = Dashboard.content(data, view: view, glyphs: .ascii)
        return PrintableText.lines(summary + "\n" + (content.rows.isEmpty ? "" : content.text))
    }

    /// One line per open finding of `severity` or worse, worst first: what `--fail-on` names on
    /// standard error when it fails the run.
    static func failingFindings(_ model: InspectorState, atLeast severity: LeakSeverity) -> [String] {
        model.findings.filter { $0.isOpen && $0.severity >= severity }
            .sorted { ($1.severity, $0.ordinal) < ($0.severity, $1.ordinal) }
            .map(failingLine)
    }

    /// `R1 error name=cartDidChange site=Shop/Cart.swift:42 count=3`: a finding as `--fail-on` names it.
    static func failingLine(_ finding: LeakFinding) -> String {
        let name = finding.evidence.name.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 } ?? "-"
        let site = finding.evidence.callsite?.description ?? "-"
        return "\(finding.rule.code) \(finding.severity) name=\(name) site=\(site) count=\(finding.occurrences)"
    }

    /// True when open findings of `severity` or worse exist.
    static func hasFindings(_ model: InspectorState, atLeast severity: LeakSeverity) -> Bool {
        model.findings.contains { $0.isOpen && $0.severity >= severity }
    }

    /// Writes all of `text` to standard output; false when it is closed (or fails), so the batch
    /// ends instead of computing frames nobody reads. Needs SIGPIPE ignored, as
    /// notifytop's start-up (`NotifyTopRunner`) does, to see EPIPE rather than be killed by the signal.
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
