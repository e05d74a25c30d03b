/// How the Observers view groups its rows.
package enum ObserverGrouping: String, Sendable, Hashable, CaseIterable {
    /// Grouped under notification names.
    case name
    /// Grouped under observer objects.
    case observer
    /// Grouped under the thread or queue handlers run on.
    case thread

    /// The next grouping (F5).
    package var next: ObserverGrouping {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// How the Threads view lays out deliveries.
package enum ThreadLayout: String, Sendable, Hashable {
    /// One log with a thread column.
    case merged
    /// One column (lane) per thread, side by side.
    case lanes
}

/// Sort, filter, selection and scroll of one table: one per view and drill-down level, so going
/// back restores where you were.
package struct TableState: Sendable, Hashable {
    /// The column sorted by.
    package var sortColumn: Int?
    /// A column asked for by title before the table may show it (`--sort center`); the sort
    /// column, once picked, goes first.
    package var requestedSort: RequestedSort?
    /// Whether the sort is inverted (`I`).
    package var inverted = false
    /// The filter (a ``FilterQuery``); empty shows everything.
    package var filter = ""
    /// The F3 search (a ``FilterQuery``): matching rows are highlighted and `n`/`N` visit them.
    package var search = ""
    /// The selected row's key: selection follows the row when the sort order changes.
    package var selectedKey: RowKey?
    /// The selected row's position, used when the selected row disappears.
    package var selectedIndex = 0
    /// The first visible row.
    package var scroll = 0
    /// Logs: keep the newest line selected and in view.
    package var follow = true

    /// Creates a table state.
    package init(sortColumn: Int? = nil) {
        self.sortColumn = sortColumn
    }
}

/// Everything about what the screen shows that is not data: the view, drill-down path, tables,
/// help, pause. Keys change only this (through ``reduce(_:context:)``); the model is never
/// touched by a key, so recording and replay stay deterministic.
package struct ViewState: Sendable, Hashable {
    /// The view shown.
    package var view: ViewID = .names
    /// The drill-down path in each view, outermost first.
    package var drill: [ViewID: [DrillLevel]] = [:]
    /// Table states keyed by ``tableKey``.
    package var tables: [String: TableState] = [:]
    /// The one-line prompt being typed (filter, search or command), if any.
    package var prompt: Prompt?
    /// A one-line message from the last key (an unknown command, no search match); the next key
    /// clears it.
    package var notice: Notice?
    /// Whether the help overlay is shown.
    package var showHelp = false
    /// The first help line shown, when the help is taller than the screen.
    package var helpScroll = 0
    /// Whether the screen is frozen (live) or the replay clock stopped (replay).
    package var paused = false
    /// Observers view grouping.
    package var grouping: ObserverGrouping = .name
    /// Threads view layout.
    package var threadLayout: ThreadLayout = .merged
    /// Whether the table has the whole screen (`e`): header, tabs and footer are hidden.
    package var expanded = false
    /// The format Ctrl-S saves in: the last one chosen with `export FORMAT`.
    package var exportFormat: ExportFormat = .text
    /// The colour scheme (`--theme`, `:theme`); the session hands it to the terminal.
    package var theme: Theme = .standard
    /// Marks, clear and wrapping of each log view (`m`, `C`, `w`), shared by its layouts and
    /// drill-downs because they read the same clock.
    package var logs: [ViewID: LogViewState] = [:]
    /// Folded groups of the Observers view, per grouping (`o`, `O`).
    package var folding: [ObserverGrouping: GroupFolding] = [:]

    /// Whether the process overview (view 0) is shown instead of ``view``.
    package var showsOverview = false

    /// Creates the initial state, showing `view`.
    package init(view: ViewID = .names) {
        self.view = view
    }

    /// The drill-down path of the view shown.
    package var path: [DrillLevel] { showsOverview ? [] : drill[view] ?? [] }

    /// Identifies the table on screen: the view plus its drill-down path (and grouping or layout,
    /// which change the rows).
    package var tableKey: String {
        if showsOverview { return "0" }
        var key = "\(view.rawValue)"
        if view == .observers && path.isEmpty { key += "/" + grouping.rawValue }
        if view == .threads && path.isEmpty { key += "/" + threadLayout.rawValue }
        for level in path { key += "/" + level.rowKey.description }
        return key
    }

    /// The log state of the view shown.
    package var log: LogViewState {
        get { logs[view] ?? LogViewState() }
        set { logs[view] = newValue }
    }

    /// The table on screen.
    package var table: TableState {
        get { tables[tableKey] ?? TableState() }
        set { tables[tableKey] = newValue }
    }
}
