/// What a table draws besides its rows, decided by keys rather than data: a log's marks, clear
/// and wrapping (`m`, `C`, `w`), and folded groups of a grouped table (`o`, `O`).
package struct TableExtras: Sendable, Hashable {
    /// The log's marks, clear and wrapping; nil for tables that are not logs.
    package var log: LogViewState?
    /// The log's newest time: marks after it are not drawn (a replay went back before them).
    package var now: UInt64?
    /// Which groups show as one summary row; nil or none folded shows every row.
    package var folding: GroupFolding?

    /// Creates extras.
    package init(log: LogViewState? = nil, now: UInt64? = nil, folding: GroupFolding? = nil) {
        self.log = log
        self.now = now
        self.folding = folding
    }
}

/// One screen line of a table, after filter and sort: rows are what selection, scrolling and
/// clicks count, so a wrapped row's continuation lines and a mark can be selected like any row.
enum TableLine: Sendable, Hashable {
    /// Part `part` of the item at this position in the items (0 is the row, more are wrapped).
    case row(Int, part: Int)
    /// A mark's separator.
    case mark(LogMark)
    /// A folded group: its first-column text and its members' positions in the items.
    case group(String, members: [Int])
}

extension TableWidget {
    /// The lines for `ordered` rows: cleared rows left out, marks between rows, folded groups as
    /// one line, wrapped rows as several.
    ///
    /// - Returns: The lines and how many rows the clear hid.
    static func lines<Item>(
        _ ordered: [Int], items: [Item], spec: TableSpec<Item>, extras: TableExtras, descending: Bool, widths: [Int]
    ) -> (lines: [TableLine], hidden: Int) {
        var rows = ordered
        var hidden = 0
        var times: [UInt64] = []
        if extras.log != nil, let time = spec.time {
            var last: UInt64 = 0
            times = items.map { item in
                if let value = time(item) { last = value }
                return last
            }
            if let cleared = extras.log?.clearedThrough {
                rows.removeAll { times[$0] <= cleared }
                hidden = ordered.count - rows.count
            }
        }
        var lines: [TableLine] = []
        lines.reserveCapacity(rows.count)
        if let folding = extras.folding, folding.foldsAny, spec.groupBy != nil, spec.summary != nil,
            let first = spec.columns.first
        {
            var index = 0
            while index < rows.count {
                let group = first.text(items[rows[index]])
                var end = index + 1
                while end < rows.count, first.text(items[rows[end]]) == group { end += 1 }
                if folding.isCollapsed(group) {
                    lines.append(.group(group, members: Array(rows[index..<end])))
                } else {
                    lines += rows[index..<end].map { .row($0, part: 0) }
                }
                index = end
            }
        } else {
            lines = rows.map { .row($0, part: 0) }
        }
        if let log = extras.log, !times.isEmpty {
            let marks = log.visibleMarks.filter { mark in extras.now.map { mark.time <= $0 } ?? true }
            if !marks.isEmpty { lines = insert(marks, into: lines, times: times, descending: descending) }
            if log.wrap { lines = wrap(lines, items: items, spec: spec, widths: widths) }
        }
        return (lines, hidden)
    }

    /// Puts each mark between the last row at or before its time and the first row after it.
    private static func insert(_ marks: [LogMark], into lines: [TableLine], times: [UInt64], descending: Bool)
        -> [TableLine]
    {
        let pending =
            descending
            ? marks.sorted { ($0.time, $0.number) > ($1.time, $1.number) }
            : marks.sorted { ($0.time, $0.number) < ($1.time, $1.number) }
        var result: [TableLine] = []
        result.reserveCapacity(lines.count + marks.count)
        var next = 0
        for line in lines {
            if case .row(let item, _) = line {
                let time = times[item]
                while next < pending.count, descending ? pending[next].time >= time : pending[next].time < time {
                    result.append(.mark(pending[next]))
                    next += 1
                }
            }
            result.append(line)
        }
        result += pending[next...].map { .mark($0) }
        return result
    }

    /// Adds a continuation line per extra line a row's flexible cells need at these widths.
    private static func wrap<Item>(_ lines: [TableLine], items: [Item], spec: TableSpec<Item>, widths: [Int])
        -> [TableLine]
    {
        let flexible = spec.columns.indices.filter {
            if case .flexible = spec.columns[$0].width { return widths[$0] > 0 }
            return false
        }
        guard !flexible.isEmpty else { return lines }
        var result: [TableLine] = []
        result.reserveCapacity(lines.count)
        for line in lines {
            result.append(line)
            guard case .row(let item, _) = line else { continue }
            let parts = flexible.map { chunks(spec.columns[$0].text(items[item]), width: widths[$0]).count }.max() ?? 1
            for part in stride(from: 1, to: parts, by: 1) { result.append(.row(item, part: part)) }
        }
        return result
    }

    /// `text` broken into lines of at most `width` cells at spaces; a word longer than a line is
    /// split between characters, so nothing is lost. At least one line.
    static func chunks(_ text: String, width: Int) -> [String] {
        guard width > 0, DisplayWidth.of(text) > width else { return [text] }
        var pieces: [String] = []
        var piece = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let cells = DisplayWidth.of(word)
            if !piece.isEmpty, used + 1 + cells <= width {
                piece += " " + word
                used += 1 + cells
                continue
            }
            if !piece.isEmpty { pieces.append(piece) }
            piece = ""
            used = 0
            for character in word {
                let size = DisplayWidth.of(character)
                if used + size > width, !piece.isEmpty {
                    pieces.append(piece)
                    piece = ""
                    used = 0
                }
                piece.append(character)
                used += size
            }
        }
        if !piece.isEmpty || pieces.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// The key selection follows: the row's key, a continuation of it for a wrapped row's further
    /// lines, or the mark or group (keys that drill nowhere).
    static func key<Item>(_ line: TableLine, items: [Item], spec: TableSpec<Item>) -> RowKey {
        switch line {
        case .row(let item, 0): spec.key(items[item])
        case .row(let item, let part): .continuation(spec.key(items[item]), part: part)
        case .mark(let mark): .mark(mark.number)
        case .group(let group, _): .group(group)
        }
    }

    /// A mark's separator, as wide as the table: `── mark 2 · 3.120 ─────`.
    static func separator(_ mark: LogMark, width: Int, glyphs: Glyphs) -> String {
        let rule = String(glyphs.horizontal)
        let dot = glyphs == .ascii ? "-" : "·"
        let head = rule + rule + " mark \(mark.number) \(dot) \(mark.label) "
        return head + String(repeating: rule, count: max(0, width - DisplayWidth.of(head)))
    }
}
