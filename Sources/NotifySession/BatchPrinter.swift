import Glibc
import NotifyModel
import NotifyTUI

/// `--batch`: frames as plain text on standard output, like `top -b`, flushed after each one so
/// a pipe sees them as they come (nvtop#402). Also the fallback when there is no usable terminal.
/// With `json`, each frame is one line of JSON (``BatchJSON``) instead.
enum BatchPrinter {
    /// Prints `iterations` frames, one redraw delay apart (the first after one delay of collecting,
    /// or after a whole replay has been read when it plays at full speed).
    static func run(_ session: DashboardSession, iterations: Int, size: Size, glyphs: Glyphs, isReplay: Bool,
                    json: Bool = false) -> DashboardSession.Exit {
        for iteration in 0..<max(1, iterations) {
            if let signal = session.pendingSignal() { return .signal(signal) }
            let deadline = CPUMeter.wallNanoseconds() + UInt64(session.status.delayMilliseconds) * 1_000_000
            repeat {
                session.poll(now: CPUMeter.wallNanoseconds())
                if session.isEnded { break }
                if let signal = session.pendingSignal() { return .signal(signal) }
                usleep(20_000)
            } while CPUMeter.wallNanoseconds() < deadline || (isReplay && session.isFastReplay && !session.isEnded)
            if json {
                write(BatchJSON.line(session.data, view: session.view, iteration: iteration + 1) + "\n")
                continue
            }
            if iteration > 0 { write("\n") }
            write(session.render(size: size, glyphs: glyphs).plainText + "\n")
        }
        return .frames
    }

    /// True when open findings of `severity` or worse exist.
    static func hasFindings(_ model: InspectorState, atLeast severity: LeakSeverity) -> Bool {
        model.findings.contains { $0.isOpen && $0.severity >= severity }
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }
}
