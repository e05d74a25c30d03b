/// Draws a filtered, sorted, scrollable table with a selection that follows its row by key.
///
/// Only the visible rows are formatted: with 10k registrations a frame sorts 10k precomputed keys
/// and formats about 40 rows, which is what keeps a frame within a few milliseconds.
public enum TableWidget {
    /// Filters, sorts and draws `items` into `rect`, returning what the reducer needs next.
    ///
    /// - Complexity: O(n log n) in the number of items for the sort; O(visible rows) formatting.
    public static func render<Item>(
        _ items: [Item], spec: TableSpec<Item>, state: TableState, into canvas: inout Canvas, rect: Rect,
        glyphs: Glyphs, isReplay: Bool = false, extras: TableExtras = TableExtras()
    ) -> FrameInfo {
        let ordered = orderIndices(items, spec: spec, state: state)
        let sortColumn = state.sortColumn ?? spec.defaultSort
        let sortable = spec.columns.indices.filter { spec.columns[$0].sortKey != nil }
        let pageSize = max(1, rect.height - 1)
        let widths = columnWidths(spec.columns.map(\.width), total: rect.width)
        let descending = sortColumn.map { spec.columns[$0].descendingFirst != state.inverted } ?? state.inverted
        let (lines, hidden) = Self.lines(ordered, items: items, spec: spec, extras: extras, descending: descending,
                                         widths: widths)
        let keys = lines.map { key($0, items: items, spec: spec) }

        var selected: Int
        if spec.isLog && state.follow {
            selected = keys.count - 1
        } else if let key = state.selectedKey, let found = keys.firstIndex(of: key) {
            selected = found
        } else if case .group(let group)? = state.selectedKey, let first = spec.columns.first,
                  let found = lines.firstIndex(where: { line in
                      if case .row(let item, _) = line { return first.text(items[item]) == group }
                      return false
                  }) {
            // An unfolded group: its first row.
            selected = found
        } else {
            selected = state.selectedIndex
        }
        selected = min(max(0, selected), max(0, keys.count - 1))
        var scroll = min(state.scroll, max(0, keys.count - pageSize))
        if spec.isLog && state.follow { scroll = max(0, keys.count - pageSize) }
        if selected < scroll { scroll = selected }
        if selected >= scroll + pageSize { scroll = selected - pageSize + 1 }
        scroll = max(0, scroll)

        let search = state.search.isEmpty ? nil : spec.query(state.search)
        var info = FrameInfo(
            rowKeys: keys, pageSize: pageSize, sortableColumns: sortable, sortColumn: sortColumn,
            selectedIndex: selected, scroll: scroll, isLog: spec.isLog, isReplay: isReplay)
        info.fields = spec.fields
        info.hiddenRows = hidden
        if let search {
            info.matchIndices = lines.indices.filter { index in
                switch lines[index] {
                case .row(let item, let part): part == 0 && spec.matches(search, items[item])
                case .mark: false
                case .group(_, let members): members.contains { spec.matches(search, items[$0]) }
                }
            }
        }
        let foldable = spec.groupBy != nil && spec.summary != nil && extras.folding != nil
        if foldable, lines.indices.contains(selected), let first = spec.columns.first {
            switch lines[selected] {
            case .row(let item, _): info.selectedGroup = first.text(items[item])
            case .group(let group, _): info.selectedGroup = group
            case .mark: break
            }
        }
        guard rect.height > 0, rect.width > 0 else { return info }

        // Header.
        canvas.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: .columnHeader)
        var x = rect.x
        for (index, column) in spec.columns.enumerated() where widths[index] > 0 {
            var title = column.title
            let isSorted = index == sortColumn && column.sortKey != nil
            if isSorted {
                let arrow = descending ? glyphs.descending : glyphs.ascending
                title = column.alignRight ? arrow + title : title + arrow
            }
            canvas.write(title, x: x, y: rect.y, width: widths[index], alignRight: column.alignRight,
                         style: isSorted ? .columnSorted : .columnHeader, ellipsis: glyphs.ellipsis)
            if column.sortKey != nil {
                info.regions.append(HitRegion(Rect(x: x, y: rect.y, width: widths[index], height: 1), .column(index)))
            }
            x += widths[index] + 1
        }
        if lines.isEmpty {
            var message = state.filter.isEmpty ? spec.emptyMessage : "no rows match the filter \"\(state.filter)\""
            if hidden > 0 { message = "cleared \(hidden) rows; new ones appear here (C shows them again)" }
            let width = DisplayWidth.of(message)
            canvas.write(message, x: rect.x + max(0, (rect.width - width) / 2), y: rect.y + min(2, rect.height - 1),
                         maxWidth: rect.width, style: .dim)
            return info
        }
        // Rows.
        let wrap = extras.log?.wrap == true
        let selectedItem: Int? = lines.indices.contains(selected) ? { if case .row(let item, _) = lines[selected] { item } else { nil } }() : nil
        var previousGroup: String?
        if spec.groupBy != nil, scroll > 0, let first = spec.columns.first {
            switch lines[scroll - 1] {
            case .row(let item, _): previousGroup = first.text(items[item])
            case .group(let group, _): previousGroup = group
            case .mark: break
            }
        }
        for line in 0..<pageSize {
            let row = scroll + line
            guard row < lines.count else { break }
            let y = rect.y + 1 + line
            info.regions.append(HitRegion(Rect(x: rect.x, y: y, width: rect.width, height: 1), .row(row)))
            let cells: [String]
            let item: Item?
            var part = 0
            var isSelected = row == selected
            switch lines[row] {
            case .mark(let mark):
                canvas.write(separator(mark, width: rect.width, glyphs: glyphs), x: rect.x, y: y, width: rect.width,
                             style: isSelected ? .selected : .info, ellipsis: glyphs.ellipsis)
                continue
            case .group(let group, let members):
                var summary = spec.summary?(members.map { items[$0] }) ?? []
                summary += Array(repeating: "", count: max(0, spec.columns.count - summary.count))
                summary[0] = (glyphs == .ascii ? "+ " : "▸ ") + group
                previousGroup = group
                cells = summary
                item = nil
            case .row(let index, let rowPart):
                let value = items[index]
                item = value
                part = rowPart
                isSelected = isSelected || selectedItem == index
                cells = spec.columns.enumerated().map { column, spec in
                    var text = part == 0 || wrap ? spec.text(value) : ""
                    if wrap, case .flexible = spec.width {
                        let pieces = chunks(text, width: widths[column])
                        text = part < pieces.count ? pieces[part] : ""
                    } else if part > 0 {
                        text = ""
                    }
                    return text
                }
            }
            let isMatch = search.map { query in
                switch lines[row] {
                case .group(_, let members): members.contains { spec.matches(query, items[$0]) }
                default: item.map { spec.matches(query, $0) } ?? false
                }
            } ?? false
            x = rect.x
            for (index, column) in spec.columns.enumerated() where widths[index] > 0 {
                let style = isSelected ? Style.selected : isMatch ? .match : (item.flatMap { column.style?($0) } ?? .normal)
                var text = cells[index]
                if index == 0, spec.groupBy != nil, case .row = lines[row] {
                    if part > 0 || text == previousGroup {
                        text = ""
                    } else {
                        previousGroup = text
                        if foldable { text = (glyphs == .ascii ? "- " : "▾ ") + text }
                    }
                }
                canvas.write(text, x: x, y: y, width: widths[index], alignRight: column.alignRight,
                             style: style, ellipsis: glyphs.ellipsis)
                if isSelected || isMatch, x + widths[index] < rect.x + rect.width {
                    canvas.write(" ", x: x + widths[index], y: y, style: isSelected ? .selected : .match)
                }
                x += widths[index] + 1
            }
            if isSelected || isMatch, x < rect.x + rect.width {
                canvas.restyle(Rect(x: x, y: y, width: rect.x + rect.width - x, height: 1),
                               style: isSelected ? .selected : .match)
            }
        }
        return info
    }

    /// Applies the filter (a ``FilterQuery`` over the columns) and the sort.
    public static func order<Item>(_ items: [Item], spec: TableSpec<Item>, state: TableState) -> [Item] {
        orderIndices(items, spec: spec, state: state).map { items[$0] }
    }

    /// ``order(_:spec:state:)`` as positions in `items`, so large rows are never copied.
    public static func orderIndices<Item>(_ items: [Item], spec: TableSpec<Item>, state: TableState) -> [Int] {
        var rows = Array(items.indices)
        if !state.filter.isEmpty {
            let query = spec.query(state.filter)
            rows = rows.filter { spec.matches(query, items[$0]) }
        }
        let sortColumn = state.sortColumn ?? spec.defaultSort
        let sortKey = sortColumn.flatMap { spec.columns.indices.contains($0) ? spec.columns[$0].sortKey : nil }
        guard sortKey != nil || spec.groupBy != nil else {
            return state.inverted ? rows.reversed() : rows
        }
        let descending = sortColumn.map { spec.columns[$0].descendingFirst != state.inverted } ?? state.inverted
        // Keys become dense integer ranks first: each distinct key is compared while ranking the
        // few distinct ones, not twice per comparison of a 10k-row sort.
        let groups = spec.groupBy.map { group in Self.denseRanks(rows.map { group(items[$0]) }) }
        let keys = sortKey.map { key in Self.denseRanks(rows.map { key(items[$0]) }) }
        let positions = Array(rows.indices).sorted { lhs, rhs in
            if let groups, groups[lhs] != groups[rhs] { return groups[lhs] < groups[rhs] }
            if let keys, keys[lhs] != keys[rhs] { return descending ? keys[rhs] < keys[lhs] : keys[lhs] < keys[rhs] }
            return lhs < rhs
        }
        return positions.map { rows[$0] }
    }

    /// Numbers that order as the keys do: the keys themselves when all are numbers, else each key's
    /// position among the distinct keys (equal keys get equal ranks).
    static func denseRanks(_ keys: [SortKey]) -> [Double] {
        var numbers: [Double] = []
        numbers.reserveCapacity(keys.count)
        for key in keys {
            guard case .number(let value) = key else { break }
            numbers.append(value)
        }
        if numbers.count == keys.count { return numbers }
        var rankOf: [SortKey: Double] = [:]
        for key in keys where rankOf[key] == nil { rankOf[key] = 0 }
        for (rank, key) in rankOf.keys.sorted().enumerated() { rankOf[key] = Double(rank) }
        return keys.map { rankOf[$0]! }
    }

    /// Splits `total` cells between columns, one space apart: fixed columns first, the rest shared
    /// by flexible ones; columns that do not fit at all get 0 and are not drawn.
    public static func columnWidths(_ rules: [ColumnWidth], total: Int) -> [Int] {
        var widths = [Int](repeating: 0, count: rules.count)
        var used = 0
        var flexible: [Int] = []
        for (index, rule) in rules.enumerated() {
            let gap = used == 0 ? 0 : 1
            let wanted: Int
            switch rule {
            case .fixed(let width): wanted = width
            case .flexible(let minimum): wanted = minimum; flexible.append(index)
            }
            if used + gap + wanted > total {
                let rest = total - used - gap
                if index == 0 || rest >= 4 { widths[index] = max(0, rest); used = total }
                break
            }
            widths[index] = wanted
            used += gap + wanted
        }
        let spare = total - used
        if spare > 0, !flexible.isEmpty {
            let drawn = flexible.filter { widths[$0] > 0 }
            for (position, index) in drawn.enumerated() {
                widths[index] += spare / drawn.count + (position < spare % drawn.count ? 1 : 0)
            }
        }
        return widths
    }
}
