#if canImport(Glibc)
import Glibc
#endif
import NotifyCurses
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

    /// Runs notifytop; returns the process exit status. Each one-line error goes to `reportError`:
    /// standard error, or what a test keeps (redirecting the process's standard error would also
    /// take what other threads write there).
    package static func run(
        _ options: NotifyTopOptions, reportError: (String) -> Void = NotifyTopRunner.printError
    ) -> Int32 {
        // A closed standard output (`notifytop --batch | head -1`) must end the run through the
        // normal exit path, which stops the demo child and flushes recordings: see EPIPE from
        // write instead of dying of SIGPIPE. Sockets already write with MSG_NOSIGNAL.
        signal(SIGPIPE, SIG_IGN)
        if options.relay {
            return options.list ? Relay.list() : Relay.stream(pid: options.pid, socket: options.socket)
        }
        let host: any InspectionHost =
            options.ssh.map { destination in
                var configuration = SSHHost.Configuration(destination: destination)
                configuration.options = options.sshOptions
                configuration.configFile = options.sshConfig
                configuration.controlPath = SSHHost.privateControlPath()
                configuration.remoteNotifytop = options.remoteNotifytop
                return SSHHost(configuration)
            } ?? LocalHost()
        defer { host.close() }
        if options.list {
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
        var demo: DemoProcess?
        var live: LiveFeed?
        defer {
            live?.stop()
            demo?.terminate()
        }
        let source: DashboardSession.Source
        var uptime: Double?
        var reattacher: Reattacher?
        var attached: String?
        var recording: TraceRecorder?
        var processOverview: ProcessOverview?
        defer { processOverview?.stop() }
        do {
            if let path = options.replay {
                let speed = options.speed ?? (options.batch || options.json ? 0 : 1)
                do {
                    source = .replay(try ReplayFeed(path: path, speed: speed, from: options.from, to: options.to))
                } catch {
                    reportError("notifytop: \(error)")
                    return unreadableInput
                }
            } else if options.startsOnOverview {
                // No target: start on the overview of every process, however many (none yet, one or
                // several). A host that cannot be listed (unreachable, a bad socket directory) is an error.
                _ = try host.inspectableProcesses()
                processOverview = ProcessOverview(host: host)
                source = .fixed([])
            } else {
                let reader: TraceReader
                if options.demo {
                    let child = try DemoProcess(arguments: DemoProcess.watchedFromTheStart(options.demoArguments))
                    demo = child
                    reader = try child.attach()
                    // The demo ends with notifytop: only a cut-off is followed, to the same child.
                    reattacher = Reattacher(
                        match: .socket(SocketDirectory.standard.socketPath(for: child.pid)), lastPid: child.pid,
                        followsRestarts: false)
                } else if options.ssh != nil {
                    let listing = try host.inspectableProcesses()
                    if listing.processes.isEmpty {
                        throw HostFailure(
                            "no inspectable process in \(listing.directory): start the app there with NOTIFYTOP=1")
                    }
                    let process = try AttachTarget.choose(pid: options.pid, from: listing)
                    uptime = process.uptimeSeconds
                    reader = try host.open(process)
                    attached = "attached to pid \(process.pid) (\(process.name)) on \(host.name) through ssh"
                    reattacher = Reattacher(
                        match: .processName(process.name), lastPid: process.pid, recordPath: options.record,
                        host: host, followsRestarts: !options.noReattach)
                } else {
                    let target = try AttachTarget.resolve(pid: options.pid, socket: options.socket)
                    uptime = target.process?.uptimeSeconds
                    reader = try TraceReader.connect(socketPath: target.socket)
                    attached = "attached to " + (target.process.map { "pid \($0.pid) (\($0.name))" } ?? target.socket)
                    let match: Reattacher.Match =
                        target.process.map { .processName($0.name) } ?? .socket(target.socket)
                    reattacher = Reattacher(
                        match: match, lastPid: target.process?.pid, recordPath: options.record,
                        followsRestarts: !options.noReattach)
                }
                if let path = options.record {
                    recording = try TraceRecorder(path: path)
                    reader.recorder = recording
                }
                let feed = LiveFeed(reader: reader)
                live = feed
                source = .live(feed)
            }
        } catch {
            reportError("notifytop: \(error)")
            return 1
        }
        var view = options.initialViewState ?? ViewState(view: options.view)
        view.theme = options.theme
        let session = DashboardSession(
            source: source, view: view, delayMilliseconds: options.delayMilliseconds,
            processUptime: uptime, recordingPath: options.record)
        session.reattacher = reattacher
        if options.ssh != nil { session.status.host = host.name }
        if let processOverview {
            session.overview = processOverview
            processOverview.refresh()
            session.view.showsOverview = true
            session.status.source = "processes on \(host.name)"
            session.logAction(.attach, "watching \(processOverview.pids.count) processes on \(host.name)")
        }
        if let attached {
            session.logAction(.attach, attached)
        } else if processOverview == nil, case .live(let feed) = source {
            session.logAction(.attach, "attached to \(feed.origin)")
        }
        defer { session.stopFeed() }
        TerminalSignals.installForBatch()
        session.pendingSignal = { TerminalSignals.received }

        var exit: DashboardSession.Exit
        if options.batch || options.json {
            exit = BatchPrinter.run(
                session, iterations: options.iterations, size: batchSize(options), glyphs: batchGlyphs(options),
                isReplay: options.replay != nil, json: options.json, moreViews: options.moreViews)
        } else {
            do {
                let terminal = try NcursesTerminal.open(
                    options: NcursesTerminal.Options(
                        monochrome: options.monochrome, asciiOnly: options.ascii,
                        mouse: options.mouse))
                exit = session.run(on: terminal)
                terminal.shutdown()
            } catch {
                reportError("notifytop: \(error); printing one plain-text frame instead (see --batch)")
                exit = BatchPrinter.run(
                    session, iterations: 1, size: batchSize(options), glyphs: batchGlyphs(options),
                    isReplay: options.replay != nil)
            }
        }
        if let message = session.status.message ?? session.lastMessage, !options.batch && !options.json {
            reportError("notifytop: \(message)")
        }
        // The reader thread writes the recording's last bytes as it stops.
        session.stopFeed()
        if let ssh = host as? SSHHost, let why = ssh.endedStreamFailure(waitMilliseconds: session.isEnded ? 1_000 : 0) {
            reportError("notifytop: \(why)")
        }
        session.checkRecording()
        if let recording { reportError("notifytop: " + recording.outcome) }
        if options.batch || options.json, case .replay(let feed) = source, let skipped = feed.skippedLines {
            reportError("notifytop: \(feed.origin): \(skipped)")
        }
        if case .signal(let number) = exit { return 128 + number }
        if session.recordingFailed { return recordingFailed }
        if let severity = options.failOn, BatchPrinter.hasFindings(session.model, atLeast: severity) {
            let failing = BatchPrinter.failingFindings(session.model, atLeast: severity)
            for line in failing { reportError("notifytop: --fail-on \(severity): " + line) }
            reportError(
                "notifytop: \(failing.count) open finding\(failing.count == 1 ? "" : "s") of severity \(severity) or worse"
            )
            return leaksFound
        }
        return 0
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
