package import ArgumentParser
package import NotifyModel
package import NotifySession
package import NotifyTUI

/// The dashboard's command line, declared and validated once: ``DashboardCommand`` takes it as an
/// `@OptionGroup` and ``NotifyTopRunner`` acts on it; tests build it with `parse(_:)`.
package struct NotifyTopOptions: ParsableArguments, Sendable {
    @OptionGroup(title: "Target")
    package var target: TargetOptions

    @Flag(
        name: .customLong("no-reattach"),
        help: ArgumentHelp(
            "End when the target's stream ends, instead of waiting for it to restart and attaching again.",
            discussion: "A process that cut notifytop off for falling behind is still connected to again."))
    package var noReattach = false

    @Flag(help: "List the inspectable processes and exit.")
    package var list = false

    /// Serve a viewer's `--ssh`: list processes or copy one's stream to standard output.
    @Flag(help: .hidden)
    package var relay = false

    @Flag(
        help: ArgumentHelp(
            "Start notify-demo and attach to it; options notifytop does not know are passed to notify-demo "
                + "(notify-demo --help lists them)."))
    package var demo = false

    @Option(help: ArgumentHelp("Save the raw trace to a file (replay it with --replay).", valueName: "file"))
    package var record: String?

    @Option(
        help: ArgumentHelp(
            "With --record: record only events this filter query matches (fields kind, name, thread, site, dur, "
                + "wait), without the dashboard.", valueName: "query"))
    package var match: String?

    @Option(
        help: ArgumentHelp("With --record: stop after this many events, without the dashboard.", valueName: "events"))
    package var limit: Int?

    @Option(
        help: ArgumentHelp(
            "With --record: stop after this long (30 or 30s, 500ms, 2m), without the dashboard.",
            valueName: "seconds"))
    package var timeout: CommandDuration?

    @Option(help: ArgumentHelp("Replay a recorded trace instead of attaching.", valueName: "file"))
    package var replay: String?

    @Option(
        help: ArgumentHelp(
            "Replay speed (0.25 to 64; 0 = all at once; default 1, or 0 with --batch).", valueName: "factor"))
    package var speed: ReplaySpeed?

    @Option(
        help: ArgumentHelp(
            "Replay from this time into the recording (2 or 2s, 250ms, 1.5s, 2m); earlier events are folded at once.",
            valueName: "seconds"))
    package var from: CommandDuration?

    @Option(
        help: ArgumentHelp(
            "Replay up to this time into the recording (2 or 2s, 250ms, 2m), then stop (shows ENDED).",
            valueName: "seconds"))
    package var to: CommandDuration?

    @Flag(help: "Print plain-text frames instead of the interactive screen (like top -b).")
    package var batch = false

    @Flag(help: "With --batch (implied): print one JSON object per frame, one per line.")
    package var json = false

    @Option(
        help: ArgumentHelp(
            "Start with this table filter, as typed after / (cart, ~^user, posts>100); a field must be a column of "
                + "the first view.",
            valueName: "query"))
    package var filter: String?

    @Option(
        help: ArgumentHelp(
            "Sort the view by a column title, optionally :asc or :desc (posts, deliv:asc).",
            valueName: "column"))
    package var sort: SortOption?

    @Option(
        name: [.customShort("n"), .long], help: ArgumentHelp("Frames to print in batch mode.", valueName: "frames"))
    package var iterations = 1

    @Option(
        help: ArgumentHelp(
            "The view to show: names, observers, threads, leaks, events, log (or 1-6); in batch "
                + "mode a comma-separated list (names,threads,leaks) prints each of them per frame.",
            valueName: "view"))
    package var view = ViewList(.names)

    @Option(
        name: [.customShort("d"), .long],
        help: ArgumentHelp("Redraw delay, from 1ms to a day (2 or 2s, 250ms, 1.5s).", valueName: "seconds"))
    package var delay = CommandDuration(milliseconds: 500)

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("Exit 3 when open findings of this severity or worse exist.", valueName: "severity"))
    package var failOn: LeakSeverity?

    @Option(
        help: ArgumentHelp(
            "Known findings (written by notifytop baseline): --fail-on fails only on others and lists these apart.",
            valueName: "file"))
    package var baseline: String?

    @Flag(name: [.customShort("C"), .customLong("no-color")], help: "No colours (as with NO_COLOR).")
    package var noColor = false

    @Flag(help: "ASCII glyphs only.")
    package var ascii = false

    @Flag(
        name: .customLong("no-mouse"), help: "Ignore the mouse (clicks, wheel), leaving text selection to the terminal."
    )
    package var noMouse = false

    @Option(
        help: ArgumentHelp(
            "Colours: default, light (dark text on light backgrounds) or mono. NO_COLOR forces mono.",
            valueName: "theme"))
    package var theme = Theme.standard

    @Option(
        help: ArgumentHelp(
            "Batch frame size, such as 120x40 (default: COLUMNS x LINES, else 120x40).", valueName: "size"))
    package var size: Size?

    package init() {}

    package func validate() throws {
        if iterations < 1 { throw ValidationError("-n takes the number of frames to print, at least 1") }
        if record != nil && target.probes == .counting {
            throw ValidationError("--record keeps every event: give --probes events (its default with --record)")
        }
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
        try validateFilter()
        try validateTargets()
        try validateCapture()
        if delay.nanoseconds < 1_000_000 || delay.nanoseconds > 86_400_000_000_000 {
            throw ValidationError("-d takes a redraw delay from 1ms to a day, such as 250ms or 2")
        }
    }

    /// A field the first view does not have is a mistake to say, not a filter to guess at.
    private func validateFilter() throws {
        guard let filter else { return }
        do {
            _ = try FilterQuery(filter, fields: ViewRows.filterFields(of: view.first, baseline: baseline != nil))
        } catch {
            throw ValidationError("--filter \"\(filter)\" (\(view.first.title.lowercased()) view): \(error)")
        }
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

    /// Which targets go with a replay, the demo, the relay and the list (``TargetOptions`` checks
    /// the targets among themselves), and which replay bounds go together.
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
        if ssh != nil, let flag = demo ? "--demo" : replay != nil ? "--replay" : nil {
            throw ValidationError(
                "--ssh attaches to a process on another host (choose one with --pid); it cannot be combined with \(flag)"
            )
        }
        if foundation,
            let flag = demo ? "--demo" : replay != nil ? "--replay" : relay ? "--relay" : list ? "--list" : nil
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

extension NotifyTopOptions {
    // The target's options, as the rest of the dashboard reads them.

    package var pid: Int32? {
        get { target.pid }
        set { target.pid = newValue }
    }

    package var socket: String? {
        get { target.socket }
        set { target.socket = newValue }
    }

    package var foundation: Bool {
        get { target.foundation }
        set { target.foundation = newValue }
    }

    package var ssh: SSHDestination? {
        get { target.ssh }
        set { target.ssh = newValue }
    }

    package var sshOptions: [String] { target.sshOptions }

    package var sshConfig: String? { target.sshConfig }

    package var remoteNotifytop: String? { target.remoteNotifytop }
}
