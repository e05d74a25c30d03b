package import NotifyModel
package import NotifyTUI

/// What the command line asked for; the executable fills it in and ``NotifyTopRunner`` acts on it.
package struct NotifyTopOptions: Sendable {
    /// Attach to this process.
    package var pid: Int32?
    /// Attach to this socket.
    package var socket: String?
    /// Print the inspectable processes and exit.
    package var list = false
    /// Inspect processes on this host, through OpenSSH.
    package var ssh: SSHDestination?
    /// `-o` options for ssh.
    package var sshOptions: [String] = []
    /// The ssh configuration file to read instead of the user's (`ssh -F`).
    package var sshConfig: String?
    /// The notifytop command on the ``ssh`` host.
    package var remoteNotifytop = "notifytop"
    /// Serve a viewer's `--ssh`: list processes or copy one's stream to standard output.
    package var relay = false
    /// Start `notify-demo` with ``demoArguments`` and attach to it.
    package var demo = false
    /// Arguments for `notify-demo`.
    package var demoArguments: [String] = []
    /// Do not wait for the target to restart when its stream ends (`--no-reattach`).
    package var noReattach = false
    /// Save the raw trace to this file from the first byte.
    package var record: String?
    /// Replay this recording instead of attaching.
    package var replay: String?
    /// Replay speed; 0 plays everything at once.
    package var speed: Double?
    /// Replay: nanoseconds after the recording's clock base folded at once before playing.
    package var from: UInt64 = 0
    /// Replay: nanoseconds after the recording's clock base where the replay ends.
    package var to: UInt64?
    /// Print plain-text frames instead of running the TUI.
    package var batch = false
    /// Batch mode prints one JSON object per frame instead of text (implies ``batch``).
    package var json = false
    /// The table filter to start with (the `/` filter), applied in batch mode too.
    package var filter = ""
    /// The column to sort the view by (a column title, as ``ViewRows/sortableColumns(of:grouping:)`` lists).
    package var sortColumn: String?
    /// Sort biggest first (true), smallest first (false), or in the column's natural order (nil).
    package var sortDescending: Bool?
    /// Frames to print in batch mode.
    package var iterations = 1
    /// The view to show first (and print, in batch mode).
    package var view: ViewID = .names
    /// Further views batch mode prints in each frame, after ``view`` (`--view names,threads,leaks`).
    package var moreViews: [ViewID] = []
    /// Redraw delay.
    package var delayMilliseconds = 500
    /// Batch mode fails (exit 3) when open findings of this severity or worse exist.
    package var failOn: LeakSeverity?
    /// Attributes only.
    package var monochrome = false
    /// ASCII glyphs only.
    package var ascii = false
    /// Report clicks and the wheel to the dashboard.
    package var mouse = true
    /// The colour scheme to start with.
    package var theme: Theme = .standard
    /// Batch frame size; nil takes COLUMNS/LINES or 120x40.
    package var size: Size?

    /// Creates default options.
    package init() {}

    /// Whether the run starts on the process overview (view 0): when no target is given, like
    /// `htop`, whatever the number of processes (none yet, one or several), batch and JSON alike.
    /// `--pid`, `--socket`, `--demo`, `--replay` and `--record` (which records one stream) attach to
    /// one target directly; `--ssh` alone shows the overview of that host.
    package var startsOnOverview: Bool {
        pid == nil && socket == nil && !demo && replay == nil && record == nil && !list && !relay
    }

    /// The view state to start with: ``view``, its filter and its sort. Nil when ``sortColumn``
    /// is not a sortable column of ``view``.
    package var initialViewState: ViewState? {
        var state = ViewState(view: view)
        var table = TableState()
        if let sortColumn {
            guard
                let sorted = ViewRows.sorting(
                    view, byColumn: sortColumn, descending: sortDescending,
                    grouping: state.grouping)
            else { return nil }
            table = sorted
        }
        table.filter = filter
        state.table = table
        return state
    }
}
