import NotifyFoundationProbe
import NotifySession
import NotifySystem
import NotifyWire
import NotifyTraceViewer

/// A replay file that cannot be read or is not a trace: its own exit status.
struct ReplayOpenFailure: Error {
    let error: any Error
}

/// What notifytop reads from, opened from its options: a recording, the process overview, the
/// demo child, a process over ssh or one on this host; and what goes with it (the recording of
/// `--record`, how to attach again, what to say in the log).
struct OpenedSource {
    var source: DashboardSession.Source
    var uptime: Double?
    var reattacher: Reattacher?
    /// The log's "attached to …" line, when the target was chosen here.
    var attached: String?
    var recording: TraceRecorder?
    var processOverview: ProcessOverview?
    private var demo: DemoProcess?
    private var live: LiveFeed?
    private(set) var probes: FoundationProbeSession?

    /// Opens what `options` name; `demoArguments` go to notify-demo with `--demo`.
    init(_ options: NotifyTopOptions, host: any InspectionHost, demoArguments: [String] = []) throws {
        source = .fixed([])
        if let path = options.replay {
            do {
                source = .replay(
                    try ReplayFeed(
                        path: path, speed: options.replaySpeed, from: options.fromNanoseconds,
                        to: options.to?.nanoseconds))
            } catch {
                throw ReplayOpenFailure(error: error)
            }
            return
        }
        if options.startsOnOverview {
            // No target: start on the overview of every process, however many (none yet, one or
            // several). A host that cannot be listed (unreachable, a bad socket directory) is an error.
            _ = try host.inspectableProcesses()
            processOverview = ProcessOverview(host: host)
            return
        }
        let reader: TraceReader
        if options.demo {
            let child = try DemoProcess(arguments: DemoProcess.watchedFromTheStart(demoArguments))
            demo = child
            reader = try child.attach()
            // The demo ends with notifytop: only a cut-off is followed, to the same child.
            reattacher = Reattacher(
                match: .socket(SocketDirectory.standard.socketPath(for: child.pid)), lastPid: child.pid,
                followsRestarts: false)
        } else if options.foundation {
            reader = try attachProbes(
                pid: options.pid, mode: options.target.probes?.mode ?? (options.record != nil ? .events : .counting))
        } else if options.ssh != nil {
            reader = try attachOverSSH(options, host: host)
        } else {
            let target = try AttachTarget.resolve(pid: options.pid, socket: options.socket)
            uptime = target.process?.uptimeSeconds
            reader = try TraceReader.connect(socketPath: target.socket)
            attached = "attached to " + (target.process.map { "pid \($0.pid) (\($0.name))" } ?? target.socket)
            let match: Reattacher.Match = target.process.map { .processName($0.name) } ?? .socket(target.socket)
            reattacher = Reattacher(
                match: match, lastPid: target.process?.pid, recordPath: options.record,
                followsRestarts: !options.noReattach)
        }
        if let path = options.record {
            recording = try TraceRecorder(path: path)
            // A bounded capture writes the lines it keeps itself.
            if !options.isBoundedCapture { reader.recorder = recording }
        }
        let feed = LiveFeed(reader: reader)
        live = feed
        source = .live(feed)
    }

    /// `--ssh`: the process `--pid` names on that host, or its only one.
    private mutating func attachOverSSH(_ options: NotifyTopOptions, host: any InspectionHost) throws -> TraceReader {
        let listing = try host.inspectableProcesses()
        if listing.processes.isEmpty {
            throw HostFailure("no inspectable process in \(listing.directory): start the app there with NOTIFYTOP=1")
        }
        let process = try AttachTarget.choose(pid: options.pid, from: listing)
        uptime = process.uptimeSeconds
        let reader = try host.open(process)
        attached = "attached to pid \(process.pid) (\(process.name)) on \(host.name) through ssh"
        reattacher = Reattacher(
            match: .processName(process.name), lastPid: process.pid, recordPath: options.record,
            host: host, followsRestarts: !options.noReattach)
        return reader
    }

    /// `--foundation --pid P`: Foundation's own center in that process, through bpftrace's probes.
    /// Not followed across restarts: a new process needs probes of its own.
    private mutating func attachProbes(pid: Int32?, mode: ProbeMode) throws -> TraceReader {
        guard let pid else {
            let found = FoundationProcesses.list()
            throw HostFailure(
                "--foundation needs --pid: "
                    + (found.isEmpty
                        ? "no process maps \(FoundationSymbols.libraryName)"
                        : "processes that map Foundation: "
                            + found.map { "\($0.pid) (\(VisibleText.line($0.name, limit: 40)))" }.joined(
                                separator: ", ")))
        }
        let session = try FoundationProbeSession(pid: pid, mode: mode)
        probes = session
        attached =
            "attached probes to pid \(pid) (\(VisibleText.line(FoundationProbeSession.threadName(pid: pid, tid: pid), limit: 40))): "
            + "Foundation's NotificationCenter"
        return TraceReader(source: .socket(session.stream), origin: "probes of pid \(pid)")
    }

    /// Stops what was started: the feed's reader, the demo child, the overview's polling.
    func close() {
        probes?.stop()
        live?.stop()
        demo?.terminate()
        processOverview?.stop()
    }
}
