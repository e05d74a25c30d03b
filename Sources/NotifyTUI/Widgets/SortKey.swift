/// A value a table column sorts by: numbers compare as numbers, text case-insensitively.
package enum SortKey: Sendable, Hashable, Comparable {
    /// A number (counts, durations, ages).
    case number(Double)
    /// Text, compared without regard to ASCII case.
    case text(String)

    /// Numbers before text; numbers by value; text by UTF-8 bytes with ASCII letters compared
    /// without case, then exactly, so the order is total and stable.
    ///
    /// Folding byte by byte allocates nothing, which matters when 10k rows sort every frame.
    package static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b
        case (.number, .text): true
        case (.text, .number): false
        case (.text(let a), .text(let b)): textLess(a, b)
        }
    }

    private static func textLess(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return a < b
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?):
                let fx = x >= 65 && x <= 90 ? x + 32 : x
                let fy = y >= 65 && y <= 90 ? y + 32 : y
                if fx != fy { return fx < fy }
            }
        }
    }
}

/// How wide a column is.
package enum ColumnWidth: Sendable, Hashable {
    /// Exactly this many cells.
    case fixed(Int)
    /// At least this many cells, sharing whatever is left over with other flexible columns.
    case flexible(min: Int)
}

/// One column of a ``TableSpec``: its header, width, how to show and sort an item.
package struct TableColumn<Item>: Sendable {
    /// Header text.
    package var title: String
    /// Width rule.
    package var width: ColumnWidth
    /// Right-align (numbers).
    package var alignRight: Bool
    /// Cell text for an item.
    package var text: @Sendable (Item) -> String
    /// The sort key for an item; nil makes the column unsortable.
    package var sortKey: (@Sendable (Item) -> SortKey)?
    /// ``sortKey`` of every item at once, in order; when set, the sort uses it instead of calling
    /// ``sortKey`` per row, which (stored in a generic column) copies each row it is handed.
    package var sortKeys: (@Sendable ([Item]) -> [SortKey])? = nil
    /// A role for the cell (a severity colour); nil uses the row's role.
    package var style: (@Sendable (Item) -> Style?)?
    /// Whether a descending sort is the natural first choice (counts: biggest first).
    package var descendingFirst: Bool
    /// What filter field queries (`dur>5ms`) compare: the sort key, or a value given for columns
    /// that must not be sortable (a log keeps its order) but should still be filterable by number.
    package var value: (@Sendable (Item) -> SortKey)?
    /// Identifying columns (a callsite, an object): the width they get from the spare cells before
    /// free-text flexible columns share the rest; nil for free text.
    package var ideal: Int? = nil
    /// How a cell wider than the column is shortened.
    package var shortening: CellShortening = .end
    /// Free text that yields: when the columns' widths do not all fit, a column gives up cells down
    /// to this many, so the identifying column after it (a callsite's file and line) and the figures
    /// after that are drawn whole; nil keeps its width.
    package var floor: Int? = nil

    /// Creates a column.
    package init(
        _ title: String, _ width: ColumnWidth, alignRight: Bool = false, descendingFirst: Bool? = nil,
        text: @escaping @Sendable (Item) -> String, sortKey: (@Sendable (Item) -> SortKey)? = nil,
        style: (@Sendable (Item) -> Style?)? = nil, value: (@Sendable (Item) -> SortKey)? = nil
    ) {
        self.title = title
        self.width = width
        self.alignRight = alignRight
        self.text = text
        self.sortKey = sortKey
        self.style = style
        self.descendingFirst = descendingFirst ?? alignRight
        self.value = value ?? sortKey
    }

    /// Makes this an identifying column: it grows to `ideal` cells before free text, and a value
    /// still too wide is shortened `shortening`'s way.
    package mutating func identifies(ideal: Int, _ shortening: CellShortening) {
        self.ideal = ideal
        self.shortening = shortening
    }
}

/// A table's definition: columns, row identity and default sort. Views build one per frame.
package struct TableSpec<Item>: Sendable {
    /// The columns, left to right.
    package var columns: [TableColumn<Item>]
    /// A stable key per row: selection follows it, and Enter opens its ``RowKey/drillTarget``.
    package var key: @Sendable (Item) -> RowKey
    /// The column sorted by until the user picks one; nil keeps the items' order (logs).
    package var defaultSort: Int?
    /// Whether the table is a log: newest last, follow mode.
    package var isLog: Bool
    /// What to say when there are no rows.
    package var emptyMessage: String
    /// Keeps rows with equal group keys together (sorted by group, then by the sort column), and
    /// shows the first column's text only on a group's first row, like a tree.
    package var groupBy: (@Sendable (Item) -> SortKey)?
    /// ``groupBy`` of every item at once, in order; when set, the sort uses it instead of calling
    /// ``groupBy`` per row, which (stored in a generic spec) copies each row it is handed.
    package var groupKeys: (@Sendable ([Item]) -> [SortKey])?
    /// Logs: a row's time in the log's clock, so marks fall between the right rows and a clear
    /// hides the right ones; nil for a row without one (it goes with the row before it).
    package var time: (@Sendable (Item) -> UInt64?)?
    /// Grouped tables: the cells of a folded group's one summary row (the first is replaced by the
    /// group); nil makes the groups unfoldable.
    package var summary: (@Sendable ([Item]) -> [String])?

    /// Creates a spec.
    package init(
        columns: [TableColumn<Item>], key: @escaping @Sendable (Item) -> RowKey, defaultSort: Int? = nil,
        isLog: Bool = false, emptyMessage: String = "nothing yet", groupBy: (@Sendable (Item) -> SortKey)? = nil
    ) {
        self.groupBy = groupBy
        self.columns = columns
        self.key = key
        self.defaultSort = defaultSort
        self.isLog = isLog
        self.emptyMessage = emptyMessage
    }
}
