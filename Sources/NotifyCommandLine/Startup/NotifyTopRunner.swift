#if canImport(Glibc)
import Glibc
#endif
import NotifyCurses
import NotifyFoundationProbe
import NotifyLeakBaseline
import NotifySession
import NotifySystem
import NotifyTraceViewer
import NotifyTUI

/// Everything `notifytop` does after parsing its command line: pick the source, open the
/// terminal (or fall back to batch text), run the session, and clean up on every path.
package enum NotifyTopRunner {
    /// Exit status when `--fail-on` found warnings.
    package static let leaksFound: Int32 = 3
    /// Exit status when the input is not a trace (or cannot be read).
    package static let unreadableInput: Int32 = 2
    /// Exit status when a recording stopped on a write error.
    package static let recordingFailed: Int32 = 1

    /// Runs notifytop; returns the process exit status. `demoArguments` go to notify-demo with
    /// `--demo`. Each one-line error goes to `reportError`: standard error, or what a test keeps
    /// (redirecting the process's standard error would also take what other threads write there).
    package static func run(
        _ options: NotifyTopOptions, demoArguments: [String] = [],
        reportError: (String) -> Void = NotifyTopRunner.printError
    ) -> Int32 {
        // A closed standard output (`notifytop --batch | head -1`) must end the run through the
        // normal exit path, which stops the demo child and flushes recordings: see EPIPE from
        // write instead of dying of SIGPIPE. Sockets already write with MSG_NOSIGNAL.
        signal(SIGPIPE, SIG_IGN)
        if options.relay {
            return options.list
                ? Relay.list(reportError: reportError)
                : Relay.stream(pid: options.pid, socket: options.socket, reportError: reportError)
        }
        let host = makeHost(options)
        defer { host.close() }
        if options.list { return list(host, reportError: reportError) }
        let baseline: LeakBaseline?
        do {
            baseline = try options.baseline.map { path throws(LeakBaseline.Failure) in
                try LeakBaseline(contentsOf: path)
            }
        } catch {
            reportError("notifytop: \(error)")
            return unreadableInput
        }
        let opened: OpenedSource
        do {
            opened = try OpenedSource(options, host: host, demoArguments: demoArguments)
        } catch let failure as ReplayOpenFailure {
            reportError("notifytop: \(failure.error)")
            return unreadableInput
        } catch {
            reportError("notifytop: \(error)")
            return 1
        }
        defer { opened.close() }
        if options.isBoundedCapture, case .live(let feed) = opened.source, let recording = opened.recording {
            return capture(feed, into: recording, options: options, reportError: reportError)
        }
        let session = makeSession(options, opened: opened, host: host, baseline: baseline)
        defer { session.stopFeed() }
        TerminalSignals.installForBatch()
        session.pendingSignal = { TerminalSignals.received }
        let exit = present(session, options: options, reportError: reportError)
        return finish(
            session, exit: exit, options: options, baseline: baseline, opened: opened, host: host,
            reportError: reportError)
    }

    /// `--record` with `--match`, `--limit` or `--timeout`: records until a bound, without the dashboard.
    private static func capture(
        _ feed: LiveFeed, into recording: TraceRecorder, options: NotifyTopOptions, reportError: (String) -> Void
    ) -> Int32 {
        guard let filter = try? CaptureFilter(query: options.match) else { return 1 }  // validated already
        var capture = BoundedCapture(filter: filter, limit: options.limit, timeout: options.timeout?.nanoseconds)
        TerminalSignals.installForBatch()
        let outcome = capture.run(feed, into: recording) { TerminalSignals.received }
        feed.stop()
        if recording.failure != nil {
            reportError("notifytop: " + recording.outcome)
            return recordingFailed
        }
        reportError(
            "notifytop: "
                + BoundedCapture.summary(
                    outcome, path: recording.path, limit: options.limit, timeout: options.timeout?.text))
        if case .signal(let number) = outcome.stop { return 128 + number }
        return 0
    }

    /// This host, or the `--ssh` one.
    static func makeHost(_ options: NotifyTopOptions) -> any InspectionHost {
        if options.foundation && options.pid == nil {
            return FoundationHost(mode: options.target.probes?.mode ?? (options.record != nil ? .events : .counting))
        }
        guard let destination = options.ssh else { return LocalHost() }
        var configuration = SSHHost.Configuration(destination: destination)
        configuration.options = options.sshOptions
        configuration.configFile = options.sshConfig
        configuration.controlPath = SSHHost.privateControlPath()
        configuration.remoteNotifytop = options.remoteNotifytop ?? "notifytop"
        return SSHHost(configuration)
    }

    /// `--list`: the host's inspectable processes as a table.
    private static func list(_ host: any InspectionHost, reportError: (String) -> Void) -> Int32 {
        let listing: HostListing
        do {
            listing = try host.inspectableProcesses()
        } catch {
            reportError("notifytop: \(error)")
            return 1
        }
        print(
            PrintableText.lines(
                listing.processes.isEmpty
                    ? "no inspectable processes in \(listing.directory)"
                    : AttachTarget.table(listing.processes)))
        return 0
    }

    /// The session on `opened`, in its first view, with what it attached to in its log.
    private static func makeSession(
        _ options: NotifyTopOptions, opened: OpenedSource, host: any InspectionHost, baseline: LeakBaseline?
    ) -> DashboardSession {
        var view = options.initialViewState ?? ViewState(view: options.firstView)
        view.theme = options.theme
        let session = DashboardSession(
            source: opened.source, view: view, delayMilliseconds: options.delay.milliseconds,
            processUptime: opened.uptime, recordingPath: options.record, host: options.ssh != nil ? host.name : nil,
            knownFindings: baseline?.signatures)
        session.reattacher = opened.reattacher
        if let probes = opened.probes { session.watchProbes(probes) }
        if let processOverview = opened.processOverview { session.show(processOverview, on: host.name) }
        if let attached = opened.attached {
            session.logAction(.attach, attached)
        } else if opened.processOverview == nil, case .live(let feed) = opened.source {
            session.logAction(.attach, "attached to \(feed.origin)")
        }
        return session
    }

    /// Batch frames, or the terminal (one plain-text frame when it cannot be opened).
    private static func present(
        _ session: DashboardSession, options: NotifyTopOptions, reportError: (String) -> Void
    ) -> DashboardSession.Exit {
        if options.batch || options.json {
            return BatchPrinter.run(
                session, iterations: options.iterations, size: batchSize(options), glyphs: batchGlyphs(options),
                isReplay: options.replay != nil, json: options.json, moreViews: options.moreViews)
        }
        do {
            let terminal = try NcursesTerminal.open(
                options: NcursesTerminal.Options(
                    monochrome: options.noColor, asciiOnly: options.ascii, mouse: !options.noMouse))
            let exit = session.run(on: terminal)
            terminal.shutdown()
            return exit
        } catch {
            reportError("notifytop: \(error); printing one plain-text frame instead (see --batch)")
            return BatchPrinter.run(
                session, iterations: 1, size: batchSize(options), glyphs: batchGlyphs(options),
                isReplay: options.replay != nil)
        }
    }

    /// What the run leaves on standard error, and its exit status.
    private static func finish(
        _ session: DashboardSession, exit: DashboardSession.Exit, options: NotifyTopOptions, baseline: LeakBaseline?,
        opened: OpenedSource, host: any InspectionHost, reportError: (String) -> Void
    ) -> Int32 {
        let batch = options.batch || options.json
        let message = batch ? nil : session.status.message ?? session.lastMessage
        if let message { reportError("notifytop: \(message)") }
        // The reader thread writes the recording's last bytes as it stops.
        session.stopFeed()
        if let ssh = host as? SSHHost, let why = ssh.endedStreamFailure(waitMilliseconds: session.isEnded ? 1_000 : 0) {
            reportError("notifytop: \(why)")
        }
        session.checkRecording()
        let recordings = (opened.recording.map { [$0] } ?? []) + session.restartRecordings
        for line in recordingOutcomes(recordings) { reportError("notifytop: " + line) }
        if batch, case .replay(let feed) = opened.source, let skipped = feed.skippedLines {
            reportError("notifytop: \(feed.origin): \(skipped)")
        }
        if case .signal(let number) = exit { return 128 + number }
        // A recording read only in part (another major version's header after the first line) is
        // refused as diff, explain and export refuse it, whether or not the screen showed it.
        if case .replay(let feed) = opened.source, let failure = feed.failure {
            if message?.contains(failure) != true { reportError("notifytop: \(failure)") }
            return unreadableInput
        }
        if session.recordingFailed { return recordingFailed }
        if let severity = options.failOn {
            let gate = LeakGate(session.model, atLeast: severity, baseline: baseline)
            for line in gate.messages { reportError("notifytop: " + line) }
            if gate.fails { return leaksFound }
        }
        return 0
    }

    /// What `--record` wrote: every file of a session that followed restarts, in one line when all
    /// were written whole (`recorded 120 bytes to run.ndjson, 80 bytes to run-2.ndjson`); a file
    /// that stopped on an error is a line of its own.
    static func recordingOutcomes(_ recordings: [TraceRecorder]) -> [String] {
        let whole = recordings.filter { $0.failure == nil }
        var lines = recordings.filter { $0.failure != nil }.map(\.outcome)
        if whole.count == 1 {
            lines.append(whole[0].outcome)
        } else if !whole.isEmpty {
            lines.append("recorded " + whole.map { "\($0.bytesWritten) bytes to \($0.path)" }.joined(separator: ", "))
        }
        return lines
    }

    static func batchSize(_ options: NotifyTopOptions) -> Size {
        if let size = options.size { return size }
        return TerminalCapabilities.printedSize(
            environment: TerminalCapabilities.environment, terminal: TerminalCapabilities.windowSize())
    }

    static func batchGlyphs(_ options: NotifyTopOptions) -> Glyphs {
        TerminalCapabilities.glyphs(
            environment: TerminalCapabilities.environment, terminal: isatty(STDOUT_FILENO) == 1,
            ascii: options.ascii)
    }

    /// Writes a message to standard error, unbuffered, so it is never lost behind a TUI frame.
    /// Control characters (from a file name or a trace) are shown as `?`, as on screen; the line
    /// breaks of a message with a table (the processes `--pid` can choose from) stay breaks.
    package static func printError(_ text: String) {
        var line = errorText(text)
        line.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// What ``printError(_:)`` writes for `text`.
    package static func errorText(_ text: String) -> String {
        PrintableText.lines(text) + "\n"
    }
}
