/// A terminal size in cells.
package struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// Creates a size; negative values become 0 so layouts never go negative.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `80x24`.
    package var description: String { "\(width)x\(height)" }
}

/// A rectangle of cells on a canvas; layouts split the screen into these.
package struct Rect: Sendable, Hashable {
    /// Left column.
    package var x: Int
    /// Top row.
    package var y: Int
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// Creates a rectangle; negative extents become 0.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The row just below the rectangle.
    package var maxY: Int { y + height }

    /// Takes `rows` rows off the top, returning them and leaving the rest in `self`.
    package mutating func takeTop(_ rows: Int) -> Rect {
        let taken = min(max(0, rows), height)
        let top = Rect(x: x, y: y, width: width, height: taken)
        y += taken
        height -= taken
        return top
    }

    /// Takes `rows` rows off the bottom, returning them and leaving the rest in `self`.
    package mutating func takeBottom(_ rows: Int) -> Rect {
        let taken = min(max(0, rows), height)
        height -= taken
        return Rect(x: x, y: y + height, width: width, height: taken)
    }

    /// The rectangle shrunk by `by` cells on every side.
    package func inset(_ by: Int) -> Rect {
        Rect(x: x + by, y: y + by, width: width - 2 * by, height: height - 2 * by)
    }
}
