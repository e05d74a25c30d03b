import Foundation
#if canImport(Glibc)
import Glibc
#endif
package import NotifyWire
package import NotifyModel
package import NotifyTUI
package import NotifyTraceViewer
import NotifyFoundationProbe

/// The run loop: the single owner of the model and the view state (bottom's `recv` loop).
///
/// Each pass waits for a key with a bounded timeout (so keys, resizes, signals and ticks share one
/// place), drains the feed into the model, and renders at most once per redraw delay, or at once
/// after a key. Rendering is pure; the backend writes only what changed.
package final class DashboardSession {
    /// Where events come from.
    package enum Source {
        /// A live process, read on its own thread.
        case live(LiveFeed)
        /// A recording on a virtual clock.
        case replay(ReplayFeed)
        /// Events given up front (tests, benchmarks).
        case fixed([TraceEvent])
    }

    /// Why the loop ended.
    package enum Exit: Equatable, Sendable {
        /// The user quit.
        case quit
        /// A terminating signal arrived.
        case signal(Int32)
        /// The frame limit was reached (batch mode, tests).
        case frames
        /// Standard output was closed: the reader of a batch went away (`notifytop --batch | head -1`).
        case outputClosed
    }

    /// The fold of every event so far.
    package internal(set) var model: InspectorState
    /// The raw event tail.
    package internal(set) var tail = EventTail()
    /// What the screen shows.
    package var view: ViewState
    /// Pause, recording, delay and the rest of the header's session facts: the session's own to
    /// change; start-up gives its part through `init` and ``show(_:on:)``.
    package internal(set) var status: SessionStatus
    /// The keymap keys go through.
    package let keymap: Keymap
    /// Where the next runtime recording goes; nil picks `notifytop-<pid>-<n>.ndjson`.
    package var recordingPath: String?
    /// What notifytop itself did (view 6). The session logs attach, stream header, losses,
    /// recordings and saves; callers add their own (reconnects) with ``logAction(_:_:)``.
    package var actions = ActionLog()
    /// Checked every pass: a signal that should end the loop.
    package var pendingSignal: () -> Int32? = { nil }
    /// Finds a live target again after its stream ends (with `--no-reattach` and `--demo`, only
    /// the same process after it cut this viewer off); nil ends the session with the stream.
    package var reattacher: Reattacher?

    var source: Source
    /// Every inspectable process of the host (view 0), when the session started without a target.
    package var overview: ProcessOverview?
    /// The overview's process the views show, and its name.
    package internal(set) var attachedProcess: (pid: Int32, name: String)?
    /// How many listed processes the Log view last said the overview does not show.
    var overviewNotShownLogged = 0
    /// Set while the stream has ended and ``reattacher`` looks for the target again.
    var waitingForRestart: TraceStreamEnd?
    /// Set while connecting again to a process that cut this viewer off: why, and the events the
    /// old stream lost (of them, by reading too slowly), which the fresh model goes on counting.
    var reconnectingAfterCutOff: CutOffLoss?
    var nextRestartCheck: UInt64 = 0
    var frozen: DashboardData?
    var memory = SessionRecorder.Memory()
    var recorder: SessionRecorder?
    var recordings = 0
    /// `--foundation --pid`'s probes, whose mode `P` switches.
    var probes: FoundationProbeSession?
    /// `--record`'s files for the processes followed after a restart, in order (the first
    /// attachment's is the runner's own).
    package internal(set) var restartRecordings: [TraceRecorder] = []
    private var cpu = CPUMeter()
    private var lastInfo = FrameInfo()
    var lastAdvance = CPUMeter.wallNanoseconds()
    var attachedAt = CPUMeter.wallNanoseconds()
    var uptimeAtAttach: Double?
    var ended = false
    private var lastCanvas: Canvas?
    private var shownMessage: (text: String, since: UInt64)?
    /// The newest status message, even once it has left the screen.
    package private(set) var lastMessage: String?
    var exporter = ViewExporter()
    /// The recorder whose failure was last reported, so each is reported once.
    var reportedRecorder: ObjectIdentifier?
    var reportedSkippedLines = false
    /// A replay's seek under way, folded a slice per pass (see ``seek(_:to:requested:)``).
    var pendingSeek: PendingSeek?
    /// Events a seek folds between two looks at the clock.
    package var seekChunk = 2_000
    /// Whether a replay's first pass has been made (and its `--from` seek begun).
    var startedReplay = false
    /// How long one pass of the run loop may fold a seek before the screen and keys get a turn.
    package var seekPassNanoseconds: UInt64 = 50_000_000
    /// Whether a recording (`--record` or `r`) stopped on a write error.
    package internal(set) var recordingFailed = false

    /// Where Ctrl-S and the screen dump write; empty means the working directory.
    package var exportDirectory: String {
        get { exporter.directory }
        set { exporter.directory = newValue }
    }

    /// Creates a session over a source.
    package init(
        source: Source, view: ViewState = ViewState(), delayMilliseconds: Int = 500, keymap: Keymap = .standard,
        configuration: InspectorConfiguration = InspectorConfiguration(), processUptime: Double? = nil,
        recordingPath: String? = nil, host: String? = nil, knownFindings: Set<LeakSignature>? = nil
    ) {
        self.source = source
        self.view = view
        self.keymap = keymap
        model = InspectorState(configuration: configuration)
        uptimeAtAttach = processUptime
        var origin = ""
        let mode: SessionStatus.Mode
        switch source {
        case .live(let feed): mode = .live; origin = feed.origin
        case .replay(let feed): mode = .replay(speed: feed.speed, paused: false); origin = feed.origin
        case .fixed: mode = .live
        }
        status = SessionStatus(
            mode: mode, source: origin, delayMilliseconds: delayMilliseconds,
            recordingPath: recordingPath)
        if case .replay = source { status.isRecording = true }
        status.host = host
        status.knownFindings = knownFindings
        actions.utcOffsetSeconds = Self.localUTCOffset()
        if case .replay(let feed) = source { logAction(.attach, "opened recording \(feed.origin)") }
        if let recordingPath, case .live = source {
            logAction(.recording, "recording the raw trace to \(recordingPath)")
        }
        if case .fixed(let events) = source { ingest(events) }
    }

    /// Adds an entry to the action log, stamped with the wall clock.
    package func logAction(_ kind: ActionLog.Kind, _ text: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        actions.append(kind, text, at: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
    }

    private static func localUTCOffset() -> Int {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// Whether no more events will come (a stream that ended while waiting for the target to
    /// restart may still go on).
    package var isEnded: Bool { ended && waitingForRestart == nil }

    /// What the next frame is rendered from (the frozen copy while paused).
    package var data: DashboardData {
        var current = frozen ?? DashboardData(model: model, tail: tail, status: status)
        current.status = status
        current.actions = actions
        if let overview, frozen?.overview == nil {
            var endedText: String?
            if case .ended(let text) = status.mode { endedText = text }
            current.overview = overview.rows(attached: model, ended: endedText)
            current.overviewDirectory = overview.directory
            current.overviewEmptyMessage = (overview.host as? any OnDemandHost)?.emptyMessage
            current.overviewNotShown = overview.overLimit
            current.overviewLimit = overview.limit
        }
        return current
    }

    /// Renders a frame for `size` and remembers what its table showed.
    package func render(size: Size, glyphs: Glyphs) -> Canvas {
        let (canvas, info) = Dashboard.render(data, view: view, size: size, glyphs: glyphs, keymap: keymap)
        lastInfo = info
        lastCanvas = canvas
        return canvas
    }

    /// Runs until quit, a signal, or `maxFrames` rendered frames.
    /// A recording started with `r` is closed when the loop ends for good (not at a frame limit).
    package func run(on terminal: any TerminalBackend, maxFrames: Int? = nil) -> Exit {
        let exit = loop(on: terminal, maxFrames: maxFrames)
        if exit != .frames { stopRecording(byUser: true) }
        return exit
    }

    private func loop(on terminal: any TerminalBackend, maxFrames: Int?) -> Exit {
        if terminal.theme != view.theme { terminal.setTheme(view.theme) }
        var frames = 0
        var nextFrame: UInt64 = 0
        while true {
            if let signal = pendingSignal() { return .signal(signal) }
            let now = CPUMeter.wallNanoseconds()
            if now >= nextFrame {
                poll(now: now)
                terminal.present(render(size: terminal.size, glyphs: terminal.glyphs))
                frames += 1
                if let maxFrames, frames >= maxFrames { return .frames }
                // While a seek folds, its progress is drawn at least every 100 ms.
                let delay = isSeeking ? min(100, status.delayMilliseconds) : status.delayMilliseconds
                nextFrame = now + UInt64(delay) * 1_000_000
            }
            let wait =
                isSeeking
                ? 0 : min(50, max(0, Int((nextFrame - min(nextFrame, CPUMeter.wallNanoseconds())) / 1_000_000)))
            guard let key = terminal.readKey(timeoutMilliseconds: wait) else {
                let wasSeeking = isSeeking
                poll(now: CPUMeter.wallNanoseconds())
                if wasSeeking && !isSeeking { nextFrame = 0 }
                continue
            }
            if isSeeking, key == .escape, view.prompt == nil, !view.showHelp, case .replay(let feed) = source {
                stopSeek(feed)
                nextFrame = 0
                continue
            }
            let reaction = view.handle(key, keymap: keymap, context: lastInfo)
            if reaction.quit { return .quit }
            if let command = reaction.command { perform(command, terminal: terminal) }
            if reaction.redraw || key == .resize { nextFrame = 0 }
        }
    }

    /// Drains the source into the model; called every pass. `now` (the wall clock) drives only
    /// the session's own display clocks: the model's time comes from the events alone, the
    /// stream's clock lines carrying it through quiet periods.
    package func poll(now: UInt64) {
        expireMessage(now: now)
        switch source {
        case .live(let feed):
            let (end, messages) = feed.drain { ingest(taking: &$0) }
            if let message = messages.last { status.message = message }
            for message in messages { logAction(.note, message) }
            if let end, !ended {
                ended = true
                // A recording is of one stream: it ends with it (with the stream's end line, if any),
                // never going on into a restarted process's.
                stopRecording(byUser: false)
                streamEnded(end, now: now)
            }
            checkRecording()
            if waitingForRestart != nil { lookForRestart(now: now) }
        case .replay(let feed):
            if !startedReplay {
                startedReplay = true
                // What precedes `--from` folds as a seek: a slice per pass, keys answered meanwhile.
                if feed.from > 0 {
                    seek(feed, to: .time(feed.from))
                    break
                }
            }
            if isSeeking { continueSeek(feed) } else { advance(feed, now: now) }
        case .fixed:
            break
        }
        pollOverview(now: now)
        recorder?.flushIfDue()
        if recorder?.failure != nil { stopRecording(byUser: false) }
        lastAdvance = now
        cpu.sample()
        status.selfCPU = cpu.percent
        status.selfCPUHistory = cpu.history
        if let uptime = uptimeAtAttach { status.processUptime = uptime + Double(now - min(now, attachedAt)) / 1e9 }
        showProbeMode()
    }

    /// The redraw delays `+` and `-` step through: halving and doubling from 250 ms without
    /// rounding drift.
    static let delayLadder = [50, 62, 125, 250, 500, 1_000, 2_000, 4_000, 8_000, 10_000]

    /// The next delay on the ladder from `current` (which `-d` may have set off the ladder).
    static func nextDelay(after current: Int, faster: Bool) -> Int {
        faster
            ? delayLadder.last { $0 < current } ?? delayLadder[0]
            : delayLadder.first { $0 > current } ?? delayLadder[delayLadder.count - 1]
    }

    /// How long a status message stays on screen.
    static let messageLifetime: UInt64 = 6_000_000_000

    /// Takes a status message off the screen once it has been shown for ``messageLifetime``; the
    /// newest one stays in ``lastMessage`` for the line printed at exit.
    private func expireMessage(now: UInt64) {
        guard let message = status.message else { return }
        if message != shownMessage?.text || now < (shownMessage?.since ?? 0) {
            shownMessage = (message, now)
            lastMessage = message
        } else if let shown = shownMessage, now - shown.since >= Self.messageLifetime {
            status.message = nil
            shownMessage = nil
        }
    }

    /// Carries out what a key asked of the session. Replay commands go to the replay's clock
    /// (``perform(_:on:)``); without one, pause freezes the screen and the other replay keys do
    /// nothing.
    private func perform(_ command: SessionCommand, terminal: any TerminalBackend) {
        if case .replay(let feed) = source, let replay = ReplayCommand(command, paused: view.paused) {
            perform(replay, on: feed)
            return
        }
        switch command {
        case .togglePause: freeze(view.paused)
        case .stepEvents, .stepSeconds, .scaleSpeed, .stepBackEvents, .stepBackSeconds, .goToTime: break
        case .toggleRecording: toggleRecording()
        case .toggleProbeMode: toggleProbeMode()
        case .markRegistrations: markRegistrations()
        case .scaleDelay(let factor):
            status.delayMilliseconds = Self.nextDelay(after: status.delayMilliseconds, faster: factor < 1)
            status.message = "redraw every " + Format.delay(milliseconds: status.delayMilliseconds)
        case .repaint: terminal.invalidate()
        case .export(let format): export(format, glyphs: terminal.glyphs)
        case .dumpScreen: dumpScreen(depth: terminal.colorDepth, theme: terminal.theme)
        case .logAction(let kind, let text): logAction(kind, text)
        case .attach(let pid): attach(pid: pid, now: CPUMeter.wallNanoseconds())
        case .setTheme(let theme):
            terminal.setTheme(theme)
            status.message =
                terminal.theme == theme
                ? "theme \(theme.rawValue)"
                : "theme \(theme.rawValue): this terminal shows no colour (NO_COLOR or mono)"
        }
    }

    /// Live pause: the screen keeps a copy of the data while events go on being folded, and counts
    /// them.
    private func freeze(_ paused: Bool) {
        if paused {
            let rows = data.overview  // the overview freezes with the views
            frozen = DashboardData(model: model, tail: tail, status: status)
            frozen?.overview = rows
            status.eventsWhilePaused = 0
        } else {
            frozen = nil
            status.eventsWhilePaused = nil
        }
    }

    /// Ctrl-S: every row of the table on screen (after filter and sort) to a file.
    func export(_ format: ExportFormat, glyphs: Glyphs) {
        guard format.isTable else { return exportTimeline() }
        let content = Dashboard.content(data, view: view, glyphs: glyphs)
        do {
            let path = try exporter.export(content, as: format)
            status.message = "saved \(content.rows.count) rows to \(path)"
            logAction(
                .export, "saved the \(content.view) view (\(content.rows.count) rows, \(format.rawValue)) to \(path)")
        } catch {
            status.message = "cannot save the view: \(Self.reason(error))"
            logAction(.export, status.message ?? "")
        }
    }

    /// The screen dump: the last frame as text and ANSI.
    func dumpScreen(depth: ColorDepth, theme: Theme) {
        guard let canvas = lastCanvas else { return }
        do {
            let paths = try exporter.dump(canvas, depth: depth == .mono ? .mono : .full, theme: theme)
            status.message = "saved the screen to " + paths.joined(separator: " and ")
            logAction(.export, status.message ?? "")
        } catch {
            status.message = "cannot save the screen: \(Self.reason(error))"
            logAction(.export, status.message ?? "")
        }
    }

    /// One line for an I/O error.
    static func reason(_ error: any Error) -> String {
        let text = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
        return text.split(separator: "\n").first.map(String.init) ?? "\(error)"
    }
}
