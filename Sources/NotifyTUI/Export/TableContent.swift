/// The formats Ctrl-S saves a view in; `export FORMAT` in the palette picks one. `perfetto` is
/// not a table: it saves the session's events as a timeline, and Ctrl-S keeps its format.
package enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// Aligned columns, as on screen but never cut.
    case text
    /// RFC 4180 comma-separated values.
    case csv
    /// One JSON object: the columns and one object per row.
    case json
    /// The events so far as a Chrome Trace Event Format timeline, for ui.perfetto.dev.
    case perfetto

    /// The file extension.
    package var fileExtension: String {
        switch self {
        case .text: "txt"
        case .csv, .json: rawValue
        case .perfetto: "json"
        }
    }

    /// Whether the format saves the table on screen (and so may become Ctrl-S's).
    package var isTable: Bool { self != .perfetto }
}

/// Every row of the table on screen, after filter and sort, as full cell texts: what Ctrl-S
/// saves. The screen cuts cells to fit; this never does.
package struct TableContent: Sendable, Hashable {
    /// The view's name for file names: `names`, `observers`, `log`.
    package var view: String
    /// Column titles.
    package var columns: [String]
    /// Cell texts, one array per row, in display order.
    package var rows: [[String]]
    /// Lines between rows that are not rows (a log's marks): the text export shows them, while
    /// ``rows`` holds only rows, so row counts and CSV stay data.
    package var notes: [Note] = []

    /// A line shown before row ``beforeRow`` (`rows.count` puts it after the last row).
    package struct Note: Sendable, Hashable {
        /// The row it precedes.
        package var beforeRow: Int
        /// The whole line: `── mark 1 · 3.120 ──`.
        package var text: String

        /// Creates a note.
        package init(beforeRow: Int, text: String) {
            self.beforeRow = beforeRow
            self.text = text
        }
    }

    /// Creates content.
    package init(view: String, columns: [String], rows: [[String]], notes: [Note] = []) {
        self.view = view
        self.columns = columns
        self.rows = rows
        self.notes = notes
    }

    /// Aligned text: a header line, then one line per row; columns two spaces apart, measured
    /// in terminal cells so CJK names line up. Cells show what the screen shows: controls and
    /// invisible format characters as `?` (``DisplayWidth/visible(_:)``), so a name cannot split
    /// a row or send an escape sequence to whoever reads the file in a terminal.
    package var text: String {
        let columns = columns.map(DisplayWidth.visible)
        let rows = rows.map { $0.map(DisplayWidth.visible) }
        let notes = notes.map { Note(beforeRow: $0.beforeRow, text: DisplayWidth.visible($0.text)) }
        var widths = columns.map(DisplayWidth.of)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                if index == cells.count - 1 {
                    text += cell
                } else {
                    text += cell + String(repeating: " ", count: widths[index] - DisplayWidth.of(cell) + 2)
                }
            }
            while text.last == " " { text.removeLast() }
            return text
        }
        var lines = [line(columns)]
        var pending = notes.sorted { $0.beforeRow < $1.beforeRow }[...]
        for (index, row) in rows.enumerated() {
            while let note = pending.first, note.beforeRow <= index {
                lines.append(note.text)
                pending.removeFirst()
            }
            lines.append(line(row))
        }
        lines += pending.map(\.text)
        return lines.joined(separator: "\n") + "\n"
    }

    /// CSV (RFC 4180): a header row; fields with a comma, quote, CR or LF are quoted, quotes
    /// doubled; lines end in CRLF. Fields are sanitised as the text export's are, except the line
    /// breaks that quoting carries; JSON keeps the exact text.
    package var csv: String {
        ([columns] + rows).map { $0.map { Self.csvField(Self.visibleKeepingLineBreaks($0)) }.joined(separator: ",") }
            .joined(separator: "\r\n") + "\r\n"
    }

    private static func visibleKeepingLineBreaks(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return DisplayWidth.visible(text) }
        return text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? String($0) : DisplayWidth.visible(String($0)) }
            .joined()
    }

    /// One CSV field, quoted when it must be.
    package static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    /// Replaces every occurrence of `target`, without Foundation.
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension TableWidget {
    /// Every row of `items` after the filter and sort of `state`, as full cell texts.
    /// A log's clear leaves rows out and its marks become ``TableContent/notes``; wrapping and
    /// folding are screen matters, so every row is saved whole.
    package static func content<Item>(
        _ items: [Item], spec: TableSpec<Item>, state: TableState, view: String, extras: TableExtras = TableExtras(),
        glyphs: Glyphs = .unicode
    ) -> TableContent {
        let ordered = orderIndices(items, spec: spec, state: state)
        var log = extras
        log.folding = nil
        log.log?.wrap = false
        let descending = spec.sortsDescending(state)
        var rows: [[String]] = []
        var notes: [TableContent.Note] = []
        let rule = String(repeating: glyphs.horizontal, count: 2)
        for line in lines(ordered, items: items, spec: spec, extras: log, descending: descending, widths: []).lines {
            switch line {
            case .row(let index, _): rows.append(spec.columns.map { $0.text(items[index]) })
            case .mark(let mark):
                notes.append(
                    TableContent.Note(beforeRow: rows.count, text: separator(mark, width: 0, glyphs: glyphs) + rule))
            case .group: break
            }
        }
        return TableContent(view: view, columns: spec.columns.map(\.title), rows: rows, notes: notes)
    }
}
