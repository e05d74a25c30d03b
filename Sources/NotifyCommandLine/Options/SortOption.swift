import ArgumentParser

/// `--sort posts`, `--sort deliv:asc`: a column title and, optionally, a direction. Whether the
/// column exists depends on the view, so the command checks that once both are known.
package struct SortOption: Sendable, Hashable, ExpressibleByArgument {
    /// A column title, as typed.
    package let column: String
    /// Biggest first (true), smallest first (false), or the column's natural order (nil).
    package let descending: Bool?

    /// `column`, `column:asc` or `column:desc`; nil for an empty column or another suffix.
    package init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let column = parts.first, !column.isEmpty, parts.count <= 2 else { return nil }
        self.column = column
        guard parts.count == 2 else {
            descending = nil
            return
        }
        switch parts[1].lowercased() {
        case "asc": descending = false
        case "desc": descending = true
        default: return nil
        }
    }

    package var defaultValueDescription: String {
        switch descending {
        case nil: column
        case true?: column + ":desc"
        case false?: column + ":asc"
        }
    }
}
