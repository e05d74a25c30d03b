/// A sort asked for by a column's title (`--sort center`) for a column the table may not show
/// yet, such as Observers' CENTER, which comes with a stream of several centers: the table sorts
/// by its default column until a frame shows the requested one, then by that.
package struct RequestedSort: Sendable, Hashable {
    /// The column's title, lower-cased.
    package var title: String
    /// Biggest first (true), smallest first (false), or the column's natural order (nil).
    package var descending: Bool?

    /// A sort by the column titled `title` (any case).
    package init(title: String, descending: Bool? = nil) {
        self.title = title.lowercased()
        self.descending = descending
    }
}

extension TableSpec {
    /// The column `state` sorts by: the one picked, else the requested one once the table has
    /// it, else the default.
    package func sortColumn(_ state: TableState) -> Int? {
        state.sortColumn ?? requestedColumn(state) ?? defaultSort
    }

    /// Whether `state` sorts biggest first: the sort column's natural order (or the requested
    /// direction while the requested column sorts), turned over by `I`.
    package func sortsDescending(_ state: TableState) -> Bool {
        guard let column = sortColumn(state), columns.indices.contains(column) else { return state.inverted }
        let requested = state.sortColumn == nil && requestedColumn(state) == column
        let natural = (requested ? state.requestedSort?.descending : nil) ?? columns[column].descendingFirst
        return natural != state.inverted
    }

    /// The sortable column `state`'s requested sort names, when the table has it.
    private func requestedColumn(_ state: TableState) -> Int? {
        guard let title = state.requestedSort?.title else { return nil }
        return columns.firstIndex { $0.sortKey != nil && $0.title.lowercased() == title }
    }
}
