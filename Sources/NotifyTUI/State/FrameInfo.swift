/// What the last rendered frame showed in its table: what the reducer needs to move a selection
/// or drill into a row without asking the model.
///
/// Rendering is pure and returns this alongside the canvas; the run loop hands it to
/// ``ViewState/reduce(_:context:)`` with the next key.
package struct FrameInfo: Sendable, Hashable {
    /// The keys of the table's rows in display order (after filter and sort).
    package var rowKeys: [RowKey]
    /// Rows visible at once.
    package var pageSize: Int
    /// The columns the table can be sorted by.
    package var sortableColumns: [Int]
    /// The sort column in effect (the table's default when none was chosen).
    package var sortColumn: Int?
    /// The selected row's position in ``rowKeys``.
    package var selectedIndex: Int
    /// The first visible row.
    package var scroll: Int
    /// Whether the table is a log (follow mode applies).
    package var isLog: Bool
    /// Whether the session is a replay (replay keys apply).
    package var isReplay: Bool
    /// The table's column titles: the fields a filter query may name.
    package var fields: [String] = []
    /// Positions in ``rowKeys`` of the rows matching the search, ascending.
    package var matchIndices: [Int] = []
    /// What clicks on the frame do: column headers, rows, tabs, footer keys.
    package var regions: [HitRegion] = []
    /// Log views: the log's clock, where `m` marks and `C` clears; nil where those keys do nothing.
    package var logClock: LogClock?
    /// Rows a clear (`C`) hides.
    package var hiddenRows = 0
    /// Foldable grouped tables: the group of the selected row, which `o` folds or unfolds.
    package var selectedGroup: String?
    /// Whether the session has a process overview (view 0) to show.
    package var hasOverview = false
    /// The table's position for the breadcrumb: the selected row's ordinal (1-based, 0 when empty)
    /// and the rows shown (folded groups count once; marks and wrapped lines not at all).
    package var rowPosition = 0
    /// Rows shown; see ``rowPosition``.
    package var shownRows = 0
    /// The table's items before the filter; nil for frames without a table.
    package var totalRows: Int?
    /// Whether a filter is narrowing the table, so the breadcrumb says `shown of total`.
    package var isFiltered = false
    /// What the table cannot show and how to see it (lanes off screen, deliveries older than the
    /// logs keep), for the breadcrumb; nil when it shows everything.
    package var omitted: String?

    /// Creates frame info.
    package init(
        rowKeys: [RowKey] = [], pageSize: Int = 1, sortableColumns: [Int] = [], sortColumn: Int? = nil,
        selectedIndex: Int = 0, scroll: Int = 0, isLog: Bool = false, isReplay: Bool = false
    ) {
        self.rowKeys = rowKeys
        self.pageSize = pageSize
        self.sortableColumns = sortableColumns
        self.sortColumn = sortColumn
        self.selectedIndex = selectedIndex
        self.scroll = scroll
        self.isLog = isLog
        self.isReplay = isReplay
    }
}
