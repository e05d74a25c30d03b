#if canImport(Glibc)
import Glibc
#endif
import NotifyCurses
import NotifyKit
import NotifyModel
import NotifySession
import NotifyTraceViewer
import NotifyTUI

/// The dashboard under measurement, in a process of its own so its CPU time is only its own:
/// notifytop's live path (reader thread, decoder, model fold, 10 frames/s through ncurses on the
/// pseudo-terminal it was given) attached to a socket. `notify-bench` starts it as
///
///     notify-bench --dashboard-child SOCKET RESULT WARM-UP-FRAMES MEASURED-FRAMES
///
/// and reads one line from RESULT: CPU and wall nanoseconds, frames, events and events lost
/// over the measured frames.
enum DashboardChild {
    static let flag = "--dashboard-child"
    /// notifytop's `--delay 100`: ten frames a second.
    static let delayMilliseconds = 100

    /// What the child measured over its measured frames.
    struct Result {
        var cpuNanoseconds: UInt64
        var wallNanoseconds: UInt64
        var frames: Int
        var events: UInt64
        var eventsLost: UInt64
        /// The part of ``eventsLost`` the dashboard lost by reading too slowly; the rest the
        /// producer dropped before its exporter could send them.
        var eventsLostBehind: UInt64
        /// Nanoseconds the dashboard's threads waited, runnable, for a CPU: time taken by others.
        var waitNanoseconds: UInt64
        /// Whether frames went through ncurses (false: the in-memory terminal, when TERM was unusable).
        var curses: Bool

        var line: String {
            "\(cpuNanoseconds) \(wallNanoseconds) \(frames) \(events) \(eventsLost) \(eventsLostBehind) \(waitNanoseconds) \(curses ? 1 : 0)\n"
        }

        init(
            cpuNanoseconds: UInt64, wallNanoseconds: UInt64, frames: Int, events: UInt64, eventsLost: UInt64,
            eventsLostBehind: UInt64, waitNanoseconds: UInt64, curses: Bool
        ) {
            self.cpuNanoseconds = cpuNanoseconds
            self.wallNanoseconds = wallNanoseconds
            self.frames = frames
            self.events = events
            self.eventsLost = eventsLost
            self.eventsLostBehind = eventsLostBehind
            self.waitNanoseconds = waitNanoseconds
            self.curses = curses
        }

        init?(line: String) {
            let values = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt64($0) }
            guard values.count == 8 else { return nil }
            self.init(
                cpuNanoseconds: values[0], wallNanoseconds: values[1], frames: Int(values[2]), events: values[3],
                eventsLost: values[4], eventsLostBehind: values[5], waitNanoseconds: values[6],
                curses: values[7] == 1)
        }

        var cpuPercent: Double { Double(cpuNanoseconds) / Double(max(wallNanoseconds, 1)) * 100 }
        /// Whether another process took the CPUs from the dashboard for more than 5% of its
        /// threads' time (its reader and its run loop): then it did not measure the dashboard alone.
        var disturbed: Bool { Double(waitNanoseconds) > 0.05 * Double(wallNanoseconds) * 2 }
        var eventsPerSecond: Double { Double(events) * 1e9 / Double(max(wallNanoseconds, 1)) }
        var framesPerSecond: Double { Double(frames) * 1e9 / Double(max(wallNanoseconds, 1)) }
    }

    /// Runs the child; never returns.
    static func main(_ arguments: [String]) -> Never {
        guard arguments.count == 4, let warmUp = Int(arguments[2]), let measured = Int(arguments[3]) else {
            print("usage: notify-bench \(flag) SOCKET RESULT WARM-UP-FRAMES MEASURED-FRAMES")
            exit(2)
        }
        let reader: TraceReader
        do {
            reader = try TraceReader.connect(socketPath: arguments[0])
        } catch {
            print("notify-bench dashboard: \(error)")
            exit(1)
        }
        let session = DashboardSession(source: .live(LiveFeed(reader: reader)), delayMilliseconds: delayMilliseconds)
        let terminal: any TerminalBackend
        var curses = true
        if let opened = try? NcursesTerminal.open() {
            terminal = opened
        } else {
            terminal = InMemoryTerminal(size: Size(width: 120, height: 40))
            curses = false
        }
        session.pendingSignal = { TerminalSignals.received }
        _ = session.run(on: terminal, maxFrames: warmUp)
        let cpuBefore = CPUMeter.cpuNanoseconds()
        let wallBefore = MonotonicClock.now()
        let eventsBefore = session.model.totals.events
        let lostBefore = session.model.eventsLost
        let behindBefore = session.model.eventsLostBehind
        let waitBefore = RunQueueWait.processNanoseconds()
        _ = session.run(on: terminal, maxFrames: measured)
        let result = Result(
            cpuNanoseconds: CPUMeter.cpuNanoseconds() - cpuBefore, wallNanoseconds: MonotonicClock.now() - wallBefore,
            frames: measured, events: session.model.totals.events - eventsBefore,
            eventsLost: session.model.eventsLost - lostBefore,
            eventsLostBehind: session.model.eventsLostBehind - behindBefore,
            waitNanoseconds: RunQueueWait.processNanoseconds() &- waitBefore, curses: curses)
        terminal.shutdown()
        session.stopFeed()
        let fd = open(arguments[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var text = result.line
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
        close(fd)
        exit(0)
    }
}
