import NotifyModel
import NotifyTUI

/// What the command line asked for; the executable fills it in and ``NotifyTopRunner`` acts on it.
public struct NotifyTopOptions: Sendable {
    /// Attach to this process.
    public var pid: Int32?
    /// Attach to this socket.
    public var socket: String?
    /// Print the inspectable processes and exit.
    public var list = false
    /// Start `notify-demo` with ``demoArguments`` and attach to it.
    public var demo = false
    /// Arguments for `notify-demo`.
    public var demoArguments: [String] = []
    /// Do not wait for the target to restart when its stream ends (`--no-reattach`).
    public var noReattach = false
    /// Save the raw trace to this file from the first byte.
    public var record: String?
    /// Replay this recording instead of attaching.
    public var replay: String?
    /// Replay speed; 0 plays everything at once.
    public var speed: Double?
    /// Replay: nanoseconds after the recording's clock base folded at once before playing.
    public var from: UInt64 = 0
    /// Replay: nanoseconds after the recording's clock base where the replay ends.
    public var to: UInt64?
    /// Print plain-text frames instead of running the TUI.
    public var batch = false
    /// Batch mode prints one JSON object per frame instead of text (implies ``batch``).
    public var json = false
    /// The table filter to start with (the `/` filter), applied in batch mode too.
    public var filter = ""
    /// The column to sort the view by (a column title, as ``ViewRows/sortableColumns(of:grouping:)`` lists).
    public var sortColumn: String?
    /// Sort biggest first (true), smallest first (false), or in the column's natural order (nil).
    public var sortDescending: Bool?
    /// Frames to print in batch mode.
    public var iterations = 1
    /// The view to show first (and print, in batch mode).
    public var view: ViewID = .names
    /// Further views batch mode prints in each frame, after ``view`` (`--view names,threads,leaks`).
    public var moreViews: [ViewID] = []
    /// Redraw delay.
    public var delayMilliseconds = 500
    /// Batch mode fails (exit 3) when open findings of this severity or worse exist.
    public var failOn: LeakSeverity?
    /// Attributes only.
    public var monochrome = false
    /// ASCII glyphs only.
    public var ascii = false
    /// Report clicks and the wheel to the dashboard.
    public var mouse = true
    /// The colour scheme to start with.
    public var theme: Theme = .standard
    /// Batch frame size; nil takes COLUMNS/LINES or 120x40.
    public var size: Size?

    /// Creates default options.
    public init() {}

    /// The view state to start with: ``view``, its filter and its sort. Nil when ``sortColumn``
    /// is not a sortable column of ``view``.
    public var initialViewState: ViewState? {
        var state = ViewState(view: view)
        var table = TableState()
        if let sortColumn {
            guard let sorted = ViewRows.sorting(view, byColumn: sortColumn, descending: sortDescending,
                                                grouping: state.grouping) else { return nil }
            table = sorted
        }
        table.filter = filter
        state.table = table
        return state
    }
}
