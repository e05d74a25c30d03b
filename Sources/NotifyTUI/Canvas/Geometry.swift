/// A terminal size in cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size; negative values become 0 so layouts never go negative.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `80x24`.
    public var description: String { "\(width)x\(height)" }
}

/// A rectangle of cells on a canvas; layouts split the screen into these.
public struct Rect: Sendable, Hashable {
    /// Left column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a rectangle; negative extents become 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The row just below the rectangle.
    public var maxY: Int { y + height }

    /// Takes `rows` rows off the top, returning them and leaving the rest in `self`.
    public mutating func takeTop(_ rows: Int) -> Rect {
        let taken = min(max(0, rows), height)
        let top = Rect(x: x, y: y, width: width, height: taken)
        y += taken
        height -= taken
        return top
    }

    /// Takes `rows` rows off the bottom, returning them and leaving the rest in `self`.
    public mutating func takeBottom(_ rows: Int) -> Rect {
        let taken = min(max(0, rows), height)
        height -= taken
        return Rect(x: x, y: y + height, width: width, height: taken)
    }

    /// The rectangle shrunk by `by` cells on every side.
    public func inset(_ by: Int) -> Rect {
        Rect(x: x + by, y: y + by, width: width - 2 * by, height: height - 2 * by)
    }
}
