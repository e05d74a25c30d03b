/// A full frame as a grid of cells: what every view renders into and every backend presents.
///
/// Rendering is immediate mode: each frame is built from scratch into a `Canvas`, then the backend
/// compares it with the previous one and writes only the rows that changed (ratatui's model).
/// Because the canvas is a plain value, a frame can be compared, printed and snapshotted in tests
/// without a terminal.
///
/// ```swift
/// var canvas = Canvas(size: Size(width: 20, height: 2))
/// canvas.write("通知 ok", x: 0, y: 0, style: .title)
/// canvas.lines[0]  // "通知 ok             "
/// ```
package struct Canvas: Sendable, Equatable {
    /// The frame's size in cells.
    package let size: Size
    /// Row-major cells, `size.width * size.height` of them.
    package private(set) var cells: [Cell]

    /// A blank canvas.
    package init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank(), count: size.width * size.height)
    }

    /// The whole canvas as a rectangle.
    package var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The cell at a position; positions outside the canvas read as blank.
    package subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank() }
        return cells[y * size.width + x]
    }

    /// One row's cells.
    package func row(_ y: Int) -> ArraySlice<Cell> {
        let start = y * size.width
        return cells[start..<(start + size.width)]
    }

    /// Writes text from `(x, y)` rightwards, clipped to `maxWidth` cells and to the canvas edge.
    ///
    /// Each grapheme cluster takes the cells the terminal gives it (``DisplayWidth/pieces(of:)``),
    /// so the columns after it stay where the grid says. Controls and invisible format characters
    /// are shown as `?` so a hostile notification name cannot move the cursor or reorder the row.
    /// A wide character that does not fit in the remaining space is replaced by a space.
    /// - Returns: The number of cells written.
    @discardableResult
    package mutating func write(
        _ text: some StringProtocol, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .normal
    ) -> Int {
        guard y >= 0, y < size.height else { return 0 }
        let limit = min(size.width, x + (maxWidth ?? size.width))
        var column = x
        func place(_ glyph: Character, cells: Int) -> Bool {
            guard column < limit else { return false }
            if column < 0 {
                column += cells
                return true
            }
            if column + cells > limit {
                put(Cell(" ", width: 1, style: style), x: column, y: y)
                column += 1
                return false
            }
            put(Cell(glyph, width: UInt8(cells), style: style), x: column, y: y)
            if cells == 2 { put(Cell(" ", width: 0, style: style), x: column + 1, y: y) }
            column += cells
            return true
        }
        for character in text {
            if let byte = character.asciiValue, character.utf8.count == 1 {
                guard place(byte < 0x20 || byte == 0x7F ? DisplayWidth.placeholder : character, cells: 1) else { break }
                continue
            }
            var fits = true
            for piece in DisplayWidth.pieces(of: character) where fits {
                fits = place(piece.glyph, cells: piece.cells)
            }
            guard fits else { break }
        }
        return max(0, column - x)
    }

    /// Writes text padded with spaces (or cut) to exactly `width` cells.
    package mutating func write(
        _ text: String, x: Int, y: Int, width: Int, alignRight: Bool = false, style: Style = .normal,
        ellipsis: String = "…"
    ) {
        write(
            DisplayWidth.fit(text, to: width, alignRight: alignRight, ellipsis: ellipsis),
            x: x, y: y, maxWidth: width, style: style)
    }

    /// Blanks a rectangle with the given role.
    package mutating func fill(_ rect: Rect, style: Style = .normal) {
        for y in max(0, rect.y)..<min(size.height, rect.maxY) {
            for x in max(0, rect.x)..<min(size.width, rect.x + rect.width) {
                cells[y * size.width + x] = .blank(style)
            }
        }
    }

    /// Changes the role of every cell in a rectangle, keeping the text (a selection highlight).
    package mutating func restyle(_ rect: Rect, style: Style) {
        for y in max(0, rect.y)..<min(size.height, rect.maxY) {
            for x in max(0, rect.x)..<min(size.width, rect.x + rect.width) {
                cells[y * size.width + x].style = style
            }
        }
    }

    /// One row as text, continuation cells skipped, so wide characters appear once.
    package func line(_ y: Int) -> String {
        var text = ""
        text.reserveCapacity(size.width)
        for cell in row(y) where !cell.isContinuation {
            text.append(cell.character)
        }
        return text
    }

    /// Every row as text: what tests compare and batch mode prints.
    package var lines: [String] { (0..<size.height).map(line) }

    /// Every row's roles as one letter per cell (``Style/code``): the attribute layer tests check.
    package var styleLines: [String] {
        (0..<size.height).map { y in String(row(y).map(\.style.code)) }
    }

    /// The frame as text with trailing spaces removed: `top -b`-style output.
    package var plainText: String {
        lines.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed.removeLast() }
            return String(trimmed)
        }.joined(separator: "\n")
    }

    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, x < size.width else { return }
        let index = y * size.width + x
        // Never leave half of a wide character behind.
        if cells[index].isContinuation, x > 0 { cells[index - 1] = .blank(cells[index - 1].style) }
        if cells[index].width == 2, cell.width != 2, x + 1 < size.width {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = cell
    }
}
