package import ArgumentParser
package import NotifyModel
package import NotifyTUI

/// notifytop's command line, declared and validated once: the executable takes it as an
/// `@OptionGroup` and ``NotifyTopRunner`` acts on it; tests build it with `parse(_:)`.
package struct NotifyTopOptions: ParsableArguments, Sendable {
    @Option(help: "Attach to this process id.")
    package var pid: Int32?

    @Option(help: ArgumentHelp("Attach to this inspector socket.", valueName: "path"))
    package var socket: String?

    @Flag(
        name: .customLong("no-reattach"),
        help: ArgumentHelp(
            "End when the target's stream ends, instead of waiting for it to restart and attaching again.",
            discussion: "A process that cut notifytop off for falling behind is still connected to again."))
    package var noReattach = false

    @Flag(help: "List the inspectable processes and exit.")
    package var list = false

    @Option(
        help: ArgumentHelp(
            "Inspect a process on another host through OpenSSH (your ssh configuration, keys and agent; "
                + "notifytop must be installed there).",
            valueName: "[user@]host[:port]"))
    package var ssh: SSHDestination?

    @Option(
        name: .customLong("ssh-option"),
        help: ArgumentHelp(
            "With --ssh: pass -o OPTION to ssh (repeatable), as IdentityFile=~/.ssh/staging.", valueName: "option"))
    package var sshOptions: [String] = []

    @Option(
        name: .customLong("ssh-config"),
        help: ArgumentHelp(
            "With --ssh: read this ssh configuration file instead of ~/.ssh/config (ssh -F).", valueName: "file"))
    package var sshConfig: String?

    @Option(
        name: .customLong("remote-notifytop"),
        help: ArgumentHelp(
            "With --ssh: the notifytop command on the remote host (default: notifytop on its PATH).", valueName: "path")
    )
    package var remoteNotifytop: String?

    /// Serve a viewer's `--ssh`: list processes or copy one's stream to standard output.
    @Flag(help: .hidden)
    package var relay = false

    @Flag(
        help: ArgumentHelp(
            "Watch an unmodified process's Foundation NotificationCenter through eBPF probes (bpftrace; "
                + "root): the one --pid names, or choose in the overview of every process that maps "
                + "Foundation. See docs/foundation.md."))
    package var foundation = false

    @Flag(help: "Start notify-demo (with any options notifytop does not know) and attach to it.")
    package var demo = false

    @Option(help: ArgumentHelp("Save the raw trace to a file (replay it with --replay).", valueName: "file"))
    package var record: String?

    @Option(
        help: ArgumentHelp(
            "With --record: record only events this filter query matches (fields kind, name, thread, site, dur, "
                + "wait), without the dashboard.", valueName: "query"))
    package var match: String?

    @Option(help: ArgumentHelp("With --record: stop after this many events, without the dashboard.", valueName: "N"))
    package var limit: Int?

    @Option(
        help: ArgumentHelp("With --record: stop after this long (30s, 2m), without the dashboard.", valueName: "time"))
    package var timeout: ReplayTime?

    @Option(help: ArgumentHelp("Replay a recorded trace instead of attaching.", valueName: "file"))
    package var replay: String?

    @Option(help: "Replay speed (0.25 to 64; 0 = all at once; default 1, or 0 with --batch).")
    package var speed: ReplaySpeed?

    @Option(
        help: ArgumentHelp(
            "Replay from this time (1.5s, 250ms, 2m or seconds); earlier events are folded at once.",
            valueName: "time"))
    package var from: ReplayTime?

    @Option(help: ArgumentHelp("Replay up to this time, then stop (shows ENDED).", valueName: "time"))
    package var to: ReplayTime?

    @Flag(help: "Print plain-text frames instead of the interactive screen (like top -b).")
    package var batch = false

    @Flag(help: "With --batch (implied): print one JSON object per frame, one per line.")
    package var json = false

    @Option(help: ArgumentHelp("Start with this table filter (as typed after /).", valueName: "query"))
    package var filter: String?

    @Option(
        help: ArgumentHelp(
            "Sort the view by a column title, optionally :asc or :desc (posts, deliv:asc).",
            valueName: "column"))
    package var sort: SortOption?

    @Option(name: [.customShort("n"), .long], help: "Frames to print in batch mode.")
    package var iterations = 1

    @Option(
        help: ArgumentHelp(
            "The view to show: names, observers, threads, leaks, events, log (or 1-6); in batch "
                + "mode a comma-separated list (names,threads,leaks) prints each of them per frame.",
            valueName: "view"))
    package var view = ViewList(.names)

    @Option(name: [.customShort("d"), .long], help: "Redraw delay, with a unit: 250ms, 1s.")
    package var delay = RedrawDelay(milliseconds: 500)

    @Option(name: .customLong("fail-on"), help: "Exit 3 when open findings of this severity or worse exist.")
    package var failOn: LeakSeverity?

    @Option(
        help: ArgumentHelp(
            "Known findings (written by notifytop baseline): --fail-on fails only on others and lists these apart.",
            valueName: "known.json"))
    package var baseline: String?

    @Flag(name: [.customShort("C"), .customLong("no-color")], help: "No colours (as with NO_COLOR).")
    package var noColor = false

    @Flag(help: "ASCII glyphs only.")
    package var ascii = false

    @Flag(
        name: .customLong("no-mouse"), help: "Ignore the mouse (clicks, wheel), leaving text selection to the terminal."
    )
    package var noMouse = false

    @Option(help: "Colours: default, light (dark text on light backgrounds) or mono. NO_COLOR forces mono.")
    package var theme = Theme.standard

    @Option(help: "Batch frame size, such as 120x40 (default: COLUMNS x LINES, else 120x40).")
    package var size: Size?

    /// Arguments for `notify-demo`: whatever notifytop does not know, with `--demo`.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    package var demoArguments: [String] = []

    package init() {}

    package func validate() throws {
        if !demo && !demoArguments.isEmpty {
            throw ValidationError(
                "unknown arguments \(demoArguments.joined(separator: " ")) (only --demo passes options on)")
        }
        if iterations < 1 { throw ValidationError("-n takes the number of frames to print, at least 1") }
        if view.views.count > 1 && !batch && !json {
            throw ValidationError(
                "several views (\(view.defaultValueDescription)) need --batch or --json; "
                    + "the dashboard shows one at a time")
        }
        if let sort,
            ViewRows.sorting(
                view.first, byColumn: sort.column, descending: sort.descending, baseline: baseline != nil) == nil
        {
            let columns = ViewRows.sortableColumns(of: view.first, baseline: baseline != nil)
            throw ValidationError(
                "cannot sort the \(view.first.title.lowercased()) view by \"\(sort.defaultValueDescription)\""
                    + (columns.isEmpty
                        ? " (it is a log, always in time order)" : "; columns: " + columns.joined(separator: ", ")))
        }
        try validateTargets()
        try validateCapture()
    }

    /// `--match`, `--limit` and `--timeout` bound a `--record` capture.
    private func validateCapture() throws {
        guard let flag = match != nil ? "--match" : limit != nil ? "--limit" : timeout != nil ? "--timeout" : nil
        else { return }
        if record == nil || replay != nil {
            throw ValidationError("\(flag) bounds a capture; use it with --record FILE (and a process, not --replay)")
        }
        if let limit, limit < 1 { throw ValidationError("--limit takes the number of events to record, at least 1") }
        if let timeout, timeout.nanoseconds == 0 {
            throw ValidationError("--timeout takes a time above zero, such as 30s")
        }
        do {
            _ = try CaptureFilter(query: match)
        } catch {
            throw ValidationError("--match: \(error)")
        }
    }

    /// Which targets and replay bounds go together.
    private func validateTargets() throws {
        if replay == nil, let flag = from != nil ? "--from" : to != nil ? "--to" : nil {
            throw ValidationError("\(flag) bounds a replay; use it with --replay FILE")
        }
        if let from, let to, from > to {
            throw ValidationError("--from \(from.text) is after --to \(to.text)")
        }
        if replay != nil && (demo || pid != nil || socket != nil) {
            throw ValidationError("--replay reads a file; it cannot be combined with --demo, --pid or --socket")
        }
        if ssh != nil, let flag = demo ? "--demo" : replay != nil ? "--replay" : socket != nil ? "--socket" : nil {
            throw ValidationError(
                "--ssh attaches to a process on another host (choose one with --pid); it cannot be combined with \(flag)"
            )
        }
        if ssh == nil,
            let flag = !sshOptions.isEmpty
                ? "--ssh-option"
                : sshConfig != nil ? "--ssh-config" : remoteNotifytop != nil ? "--remote-notifytop" : nil
        {
            throw ValidationError("\(flag) is for --ssh HOST")
        }
        if foundation,
            let flag = demo
                ? "--demo"
                : replay != nil
                    ? "--replay"
                    : socket != nil ? "--socket" : ssh != nil ? "--ssh" : relay ? "--relay" : list ? "--list" : nil
        {
            throw ValidationError(
                "--foundation probes a process on this host by --pid; it cannot be combined with \(flag)")
        }
        if relay && (ssh != nil || demo || replay != nil) {
            throw ValidationError("--relay serves a viewer's --ssh; it takes only --list, --pid or --socket")
        }
    }
}

extension NotifyTopOptions {
    /// The replay's speed: `--speed`, else everything at once in batch output, else real time.
    package var replaySpeed: Double { speed?.factor ?? (batch || json ? 0 : 1) }

    /// `--from` in nanoseconds after the recording's clock base (0: from its start).
    package var fromNanoseconds: UInt64 { from?.nanoseconds ?? 0 }

    /// Whether `--record` is a bounded capture (`--match`, `--limit`, `--timeout`), run without the dashboard.
    package var isBoundedCapture: Bool { record != nil && (match != nil || limit != nil || timeout != nil) }

    /// The view to show first (and print, in batch mode).
    package var firstView: ViewID { view.first }

    /// Further views batch mode prints in each frame, after ``firstView``.
    package var moreViews: [ViewID] { view.rest }

    /// Whether the run starts on the process overview (view 0): when no target is given, like
    /// `htop`, whatever the number of processes (none yet, one or several), batch and JSON alike.
    /// `--pid`, `--socket`, `--demo`, `--replay` and `--record` (which records one stream) attach to
    /// one target directly; `--ssh` alone shows the overview of that host, `--foundation` alone the
    /// overview of this host's processes that map Foundation.
    package var startsOnOverview: Bool {
        pid == nil && socket == nil && !demo && replay == nil && record == nil && !list && !relay
    }

    /// The view state to start with: the first view, its filter and its sort. Nil when `--sort`
    /// names no sortable column of that view.
    package var initialViewState: ViewState? {
        var state = ViewState(view: firstView)
        var table = TableState()
        if let sort {
            guard
                let sorted = ViewRows.sorting(
                    firstView, byColumn: sort.column, descending: sort.descending,
                    grouping: state.grouping, baseline: baseline != nil)
            else { return nil }
            table = sorted
        }
        table.filter = filter ?? ""
        state.table = table
        state.theme = theme
        return state
    }
}
