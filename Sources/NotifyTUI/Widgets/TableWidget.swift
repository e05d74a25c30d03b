/// Draws a filtered, sorted, scrollable table with a selection that follows its row by key.
///
/// Only the visible rows are formatted: with 10k registrations a frame sorts 10k precomputed keys
/// and formats about 40 rows, which is what keeps a frame within a few milliseconds.
package enum TableWidget {
    /// Filters, sorts and draws `items` into `rect`, returning what the reducer needs next.
    ///
    /// - Complexity: O(n log n) in the number of items for the sort; O(visible rows) formatting.
    package static func render<Item>(
        _ items: [Item], spec: TableSpec<Item>, state: TableState, into canvas: inout Canvas, rect: Rect,
        glyphs: Glyphs, isReplay: Bool = false, extras: TableExtras = TableExtras()
    ) -> FrameInfo {
        let ordered = orderIndices(items, spec: spec, state: state)
        let sortColumn = spec.sortColumn(state)
        let widths = columnWidths(
            spec.columns.map(\.width), total: rect.width, ideals: spec.columns.map(\.ideal),
            floors: spec.columns.map(\.floor))
        let descending = spec.sortsDescending(state)
        let (lines, hidden) = Self.lines(
            ordered, items: items, spec: spec, extras: extras, descending: descending,
            widths: widths)
        let table = TableFrame(
            items: items, spec: spec, lines: lines, widths: widths, rect: rect, glyphs: glyphs, sortColumn: sortColumn,
            descending: descending, search: state.search.isEmpty ? nil : spec.query(state.search),
            foldable: spec.groupBy != nil && spec.summary != nil && extras.folding != nil,
            wrap: extras.log?.wrap == true)
        let keys = lines.map { key($0, items: items, spec: spec) }
        let (selected, scroll) = table.selectRow(keys: keys, state: state)

        var info = FrameInfo(
            rowKeys: keys, pageSize: table.pageSize,
            sortableColumns: spec.columns.indices.filter { spec.columns[$0].sortKey != nil }, sortColumn: sortColumn,
            selectedIndex: selected, scroll: scroll, isLog: spec.isLog, isReplay: isReplay)
        info.fields = spec.fields
        info.hiddenRows = hidden
        info.matchIndices = table.matchIndices()
        info.totalRows = items.count
        info.isFiltered = !state.filter.isEmpty
        if extras.log == nil && extras.folding?.foldsAny != true {
            // One line per row: no need to walk 10k lines.
            info.shownRows = lines.count
            info.rowPosition = lines.isEmpty ? 0 : selected + 1
        } else {
            for index in lines.indices {
                if case .row(_, let part) = lines[index], part > 0 { continue }
                if case .mark = lines[index] { continue }
                info.shownRows += 1
                if index <= selected { info.rowPosition = info.shownRows }
            }
        }
        if table.foldable, lines.indices.contains(selected) { info.selectedGroup = table.group(of: lines[selected]) }
        guard rect.height > 0, rect.width > 0 else { return info }

        table.drawHeader(into: &canvas, regions: &info.regions)
        if lines.isEmpty {
            table.drawEmptyMessage(filter: state.filter, hidden: hidden, into: &canvas)
        } else {
            table.drawRows(selected: selected, scroll: scroll, into: &canvas, regions: &info.regions)
        }
        return info
    }

    /// Applies the filter (a ``FilterQuery`` over the columns) and the sort.
    package static func order<Item>(_ items: [Item], spec: TableSpec<Item>, state: TableState) -> [Item] {
        orderIndices(items, spec: spec, state: state).map { items[$0] }
    }

    /// ``order(_:spec:state:)`` as positions in `items`, so large rows are never copied.
    package static func orderIndices<Item>(_ items: [Item], spec: TableSpec<Item>, state: TableState) -> [Int] {
        var rows = Array(items.indices)
        if !state.filter.isEmpty {
            let query = spec.query(state.filter)
            rows = rows.filter { spec.matches(query, items[$0]) }
        }
        let sortColumn = spec.sortColumn(state)
        let sortKey = sortColumn.flatMap { spec.columns.indices.contains($0) ? spec.columns[$0].sortKey : nil }
        guard sortKey != nil || spec.groupBy != nil else {
            return state.inverted ? rows.reversed() : rows
        }
        let descending = spec.sortsDescending(state)
        // Keys become dense integer ranks first: each distinct key is compared while ranking the
        // few distinct ones, not twice per comparison of a 10k-row sort.
        let groups = spec.groupBy.map { group in
            Self.denseRanks(spec.groupKeys.map { Self.pick(rows, from: $0(items)) } ?? rows.map { group(items[$0]) })
        }
        let allSortKeys = sortColumn.flatMap { spec.columns.indices.contains($0) ? spec.columns[$0].sortKeys : nil }
        let keys = sortKey.map { key in
            Self.denseRanks(allSortKeys.map { Self.pick(rows, from: $0(items)) } ?? rows.map { key(items[$0]) })
        }
        let positions = Array(rows.indices).sorted { lhs, rhs in
            if let groups, groups[lhs] != groups[rhs] { return groups[lhs] < groups[rhs] }
            if let keys, keys[lhs] != keys[rhs] { return descending ? keys[rhs] < keys[lhs] : keys[lhs] < keys[rhs] }
            return lhs < rhs
        }
        return positions.map { rows[$0] }
    }

    /// The keys of the rows kept (positions in the items), from the keys of every item.
    private static func pick(_ rows: [Int], from all: [SortKey]) -> [SortKey] {
        rows.count == all.count ? all : rows.map { all[$0] }
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
        // One hash per key (two for a new one): each key gets the number of its first occurrence
        // among the distinct keys (a run of equal keys reuses the previous one's), then only the
        // distinct keys sort.
        var distinctIndex: [SortKey: Int] = [:]
        var distinct: [SortKey] = []
        var ids: [Int] = []
        ids.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            if position > 0, key == keys[position - 1] {
                ids.append(ids[position - 1])
                continue
            }
            if let id = distinctIndex[key] {
                ids.append(id)
            } else {
                distinctIndex[key] = distinct.count
                ids.append(distinct.count)
                distinct.append(key)
            }
        }
        var rankOfID = [Double](repeating: 0, count: distinct.count)
        for (rank, id) in distinct.indices.sorted(by: { distinct[$0] < distinct[$1] }).enumerated() {
            rankOfID[id] = Double(rank)
        }
        return ids.map { rankOfID[$0] }
    }

    /// Splits `total` cells between columns, one space apart: fixed columns first, then flexible
    /// columns with an ideal grow toward it (identifiers keep their value), then the rest is shared
    /// by the flexible columns without one (free text yields first); columns that do not fit at all
    /// get 0 and are not drawn. When the minimums do not all fit, columns with a floor first give
    /// up cells toward it, the one with the most to spare first.
    package static func columnWidths(
        _ rules: [ColumnWidth], total: Int, ideals: [Int?] = [], floors: [Int?] = []
    ) -> [Int] {
        let rules = yielding(rules, total: total, ideals: ideals, floors: floors)
        var widths = [Int](repeating: 0, count: rules.count)
        var used = 0
        var flexible: [Int] = []
        for (index, rule) in rules.enumerated() {
            // A column a view hides at this width (`.fixed(0)`) takes no gap either.
            if rule == .fixed(0) { continue }
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
        var spare = total - used
        let drawn = flexible.filter { widths[$0] > 0 }
        // One cell at a time to each identifier short of its ideal, so several share fairly.
        var growing = drawn.filter { ideals.indices.contains($0) && (ideals[$0] ?? 0) > widths[$0] }
        while spare > 0, !growing.isEmpty {
            for index in growing where spare > 0 {
                widths[index] += 1
                spare -= 1
            }
            growing.removeAll { widths[$0] >= ideals[$0] ?? 0 }
        }
        let freeText = drawn.filter { !ideals.indices.contains($0) || ideals[$0] == nil }
        let sharing = freeText.isEmpty ? drawn : freeText
        if spare > 0, !sharing.isEmpty {
            let drawn = sharing
            for (position, index) in drawn.enumerated() {
                widths[index] += spare / drawn.count + (position < spare % drawn.count ? 1 : 0)
            }
        }
        return widths
    }

    /// `rules` with the widths of columns that have a floor lowered, one cell at a time
    /// from the one with the most above its floor, just enough for every column to be drawn at its
    /// minimum (the figures after the last identifying column too), else for that last identifying
    /// column (one with an ideal); unchanged when it fits anyway or cannot be made to fit, so free
    /// text never shrinks for a column it cannot bring in.
    static func yielding(_ rules: [ColumnWidth], total: Int, ideals: [Int?], floors: [Int?]) -> [ColumnWidth] {
        guard floors.contains(where: { $0 != nil }),
            let identifying = ideals.indices.last(where: { ideals[$0] != nil && $0 < rules.count })
        else { return rules }
        for target in Set([rules.count - 1, identifying]).sorted(by: >) {
            if let fitted = yielding(rules, upTo: target, total: total, floors: floors) { return fitted }
        }
        return rules
    }

    /// `rules` with floors given up so columns up to `target` fit; nil when they cannot.
    private static func yielding(_ rules: [ColumnWidth], upTo target: Int, total: Int, floors: [Int?])
        -> [ColumnWidth]?
    {
        var minimums = rules.map { rule -> Int in
            switch rule {
            case .fixed(let width): width
            case .flexible(let minimum): minimum
            }
        }
        func room(_ index: Int) -> Int {
            guard floors.indices.contains(index), let floor = floors[index] else { return 0 }
            return max(0, minimums[index] - floor)
        }
        // Hidden columns (`.fixed(0)`) take no gap.
        let gaps = minimums[...target].filter { $0 > 0 }.count - 1
        var over = minimums[...target].reduce(0, +) + gaps - total
        guard over > 0 else { return rules }
        guard (0..<target).reduce(0, { $0 + room($1) }) >= over else { return nil }
        while over > 0, let widest = (0..<target).filter({ room($0) > 0 }).max(by: { room($0) < room($1) }) {
            minimums[widest] -= 1
            over -= 1
        }
        return rules.enumerated().map { index, rule in
            switch rule {
            case .fixed: .fixed(minimums[index])
            case .flexible: .flexible(min: minimums[index])
            }
        }
    }
}
