/// One frame of a table: its lines (after filter, sort, folds, marks and wraps) laid out in a
/// rect. ``TableWidget/render(_:spec:state:into:rect:glyphs:isReplay:extras:)`` builds one, then
/// selects a row, draws the header and draws the visible rows.
struct TableFrame<Item> {
    let items: [Item]
    let spec: TableSpec<Item>
    let lines: [TableLine]
    let widths: [Int]
    let rect: Rect
    let glyphs: Glyphs
    let sortColumn: Int?
    let descending: Bool
    /// The F3 search; nil when there is none.
    let search: FilterQuery?
    /// Whether groups fold (`o`): a grouped table with a summary row and folding state.
    let foldable: Bool
    /// Whether wrapped rows show their continuation lines (`w`).
    let wrap: Bool

    /// Rows visible at once, under the header.
    var pageSize: Int { max(1, rect.height - 1) }

    /// The group a line belongs to: a row's first-column text, or a folded group's; nil for marks.
    func group(of line: TableLine) -> String? {
        guard let first = spec.columns.first else { return nil }
        switch line {
        case .row(let item, _): return first.text(items[item])
        case .group(let group, _): return group
        case .mark: return nil
        }
    }

    // MARK: Selection

    /// The selected line and the first visible one. A followed log selects its newest line; else
    /// the selection follows its key, then an unfolded group's first row, then its position.
    func selectRow(keys: [RowKey], state: TableState) -> (selected: Int, scroll: Int) {
        var selected: Int
        if spec.isLog && state.follow {
            selected = keys.count - 1
        } else if let key = state.selectedKey, let found = keys.firstIndex(of: key) {
            selected = found
        } else if case .group(let group)? = state.selectedKey, let found = firstRow(of: group) {
            selected = found
        } else {
            selected = state.selectedIndex
        }
        selected = min(max(0, selected), max(0, keys.count - 1))
        var scroll = min(state.scroll, max(0, keys.count - pageSize))
        if spec.isLog && state.follow { scroll = max(0, keys.count - pageSize) }
        if selected < scroll { scroll = selected }
        if selected >= scroll + pageSize { scroll = selected - pageSize + 1 }
        return (selected, max(0, scroll))
    }

    /// The first row of an unfolded group.
    private func firstRow(of group: String) -> Int? {
        lines.firstIndex { line in
            if case .row = line { return self.group(of: line) == group }
            return false
        }
    }

    /// Positions of the lines the search matches: a row's first line, or a folded group with a
    /// matching member.
    func matchIndices() -> [Int] {
        guard let search else { return [] }
        return lines.indices.filter { index in
            switch lines[index] {
            case .row(let item, let part): part == 0 && spec.matches(search, items[item])
            case .mark: false
            case .group(_, let members): members.contains { spec.matches(search, items[$0]) }
            }
        }
    }

    // MARK: Header

    /// The column titles, the sorted one with its arrow; sortable titles are click regions.
    func drawHeader(into canvas: inout Canvas, regions: inout [HitRegion]) {
        canvas.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: .columnHeader)
        var x = rect.x
        for (index, column) in spec.columns.enumerated() where widths[index] > 0 {
            var title = column.title
            let isSorted = index == sortColumn && column.sortKey != nil
            if isSorted {
                let arrow = descending ? glyphs.descending : glyphs.ascending
                title = column.alignRight ? arrow + title : title + arrow
            }
            canvas.write(
                title, x: x, y: rect.y, width: widths[index], alignRight: column.alignRight,
                style: isSorted ? .columnSorted : .columnHeader, ellipsis: glyphs.ellipsis)
            if column.sortKey != nil {
                regions.append(HitRegion(Rect(x: x, y: rect.y, width: widths[index], height: 1), .column(index)))
            }
            x += widths[index] + 1
        }
    }

    /// What an empty table says instead of rows: why it is empty.
    func drawEmptyMessage(filter: String, hidden: Int, into canvas: inout Canvas) {
        var message = filter.isEmpty ? spec.emptyMessage : "no rows match the filter \"\(filter)\""
        if hidden > 0 { message = "cleared \(hidden) rows; new ones appear here (C shows them again)" }
        let width = DisplayWidth.of(message)
        canvas.write(
            message, x: rect.x + max(0, (rect.width - width) / 2), y: rect.y + min(2, rect.height - 1),
            maxWidth: rect.width, style: .dim)
    }

    // MARK: Rows

    /// The visible lines from `scroll`, each a click region. Every line of the selected row is
    /// highlighted (a wrapped row has several); a grouped table names each group once, like a tree.
    func drawRows(selected: Int, scroll: Int, into canvas: inout Canvas, regions: inout [HitRegion]) {
        let selectedItem: Int? =
            if lines.indices.contains(selected), case .row(let item, _) = lines[selected] {
                item
            } else {
                nil
            }
        var previousGroup = spec.groupBy != nil && scroll > 0 ? group(of: lines[scroll - 1]) : nil
        for line in 0..<pageSize {
            let row = scroll + line
            guard row < lines.count else { break }
            let y = rect.y + 1 + line
            regions.append(HitRegion(Rect(x: rect.x, y: y, width: rect.width, height: 1), .row(row)))
            var isSelected = row == selected
            switch lines[row] {
            case .mark(let mark):
                canvas.write(
                    TableWidget.separator(mark, width: rect.width, glyphs: glyphs), x: rect.x, y: y,
                    width: rect.width, style: isSelected ? .selected : .info, ellipsis: glyphs.ellipsis)
                continue
            case .group(let group, _):
                previousGroup = group
            case .row(let item, _):
                isSelected = isSelected || selectedItem == item
            }
            drawCells(of: lines[row], y: y, isSelected: isSelected, previousGroup: &previousGroup, into: &canvas)
        }
    }

    /// One row or folded group's cells, styled; a selected or matching line is highlighted across
    /// the whole width.
    private func drawCells(
        of line: TableLine, y: Int, isSelected: Bool, previousGroup: inout String?, into canvas: inout Canvas
    ) {
        let cells = cells(of: line)
        let item: Item?
        let part: Int
        if case .row(let index, let rowPart) = line {
            item = items[index]
            part = rowPart
        } else {
            item = nil
            part = 0
        }
        let isMatch = matches(line)
        var x = rect.x
        for (index, column) in spec.columns.enumerated() where widths[index] > 0 {
            let style = isSelected ? Style.selected : isMatch ? .match : (item.flatMap { column.style?($0) } ?? .normal)
            var text = cells[index]
            if index == 0, spec.groupBy != nil, case .row = line {
                if part > 0 || text == previousGroup {
                    text = ""
                } else {
                    previousGroup = text
                    if foldable { text = (glyphs == .ascii ? "- " : "▾ ") + text }
                }
            }
            text = column.shortening.apply(text, width: widths[index], ellipsis: glyphs.ellipsis)
            canvas.write(
                text, x: x, y: y, width: widths[index], alignRight: column.alignRight,
                style: style, ellipsis: glyphs.ellipsis)
            if isSelected || isMatch, x + widths[index] < rect.x + rect.width {
                canvas.write(" ", x: x + widths[index], y: y, style: isSelected ? .selected : .match)
            }
            x += widths[index] + 1
        }
        if isSelected || isMatch, x < rect.x + rect.width {
            canvas.restyle(
                Rect(x: x, y: y, width: rect.x + rect.width - x, height: 1),
                style: isSelected ? .selected : .match)
        }
    }

    /// A row's cells (a continuation line's share of its wrapped cells), or a folded group's
    /// summary with the group in the first.
    private func cells(of line: TableLine) -> [String] {
        switch line {
        case .mark:
            return []
        case .group(let group, let members):
            var summary = spec.summary?(members.map { items[$0] }) ?? []
            summary += Array(repeating: "", count: max(0, spec.columns.count - summary.count))
            summary[0] = (glyphs == .ascii ? "+ " : "▸ ") + group
            return summary
        case .row(let index, let part):
            let value = items[index]
            return spec.columns.enumerated().map { position, column in
                var text = part == 0 || wrap ? column.text(value) : ""
                if wrap, case .flexible = column.width {
                    let pieces = TableWidget.chunks(text, width: widths[position])
                    text = part < pieces.count ? pieces[part] : ""
                } else if part > 0 {
                    text = ""
                }
                return text
            }
        }
    }

    /// Whether the search matches a line: a row's item, or any member of a folded group.
    private func matches(_ line: TableLine) -> Bool {
        guard let search else { return false }
        switch line {
        case .row(let index, _): return spec.matches(search, items[index])
        case .group(_, let members): return members.contains { spec.matches(search, items[$0]) }
        case .mark: return false
        }
    }
}
