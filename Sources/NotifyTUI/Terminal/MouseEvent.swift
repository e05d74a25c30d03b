/// A mouse action at a cell, decoded by the backend (curses' `getmouse`) like a key, so the
/// reducer handles clicks and scrolls without knowing any terminal.
package struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    package enum Kind: Sendable, Hashable {
        /// Button 1 pressed and released.
        case click
        /// Button 1 clicked twice in quick succession.
        case doubleClick
        /// The wheel turned away from the user.
        case wheelUp
        /// The wheel turned towards the user.
        case wheelDown
    }

    /// What the mouse did.
    package var kind: Kind
    /// The cell's column.
    package var x: Int
    /// The cell's row.
    package var y: Int

    /// Creates an event.
    package init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// What a click on part of the screen means: the last frame lists these regions.
package enum HitTarget: Sendable, Hashable {
    /// Run an action (a footer key, a view tab).
    case action(Action)
    /// Sort by this table column; a second click inverts.
    case column(Int)
    /// Select this row (its position in ``FrameInfo/rowKeys``); a click on the selected row opens it.
    case row(Int)
}

/// A clickable rectangle of the last frame.
package struct HitRegion: Sendable, Hashable {
    /// Where.
    package var rect: Rect
    /// What a click there does.
    package var target: HitTarget

    /// Creates a region.
    package init(_ rect: Rect, _ target: HitTarget) {
        self.rect = rect
        self.target = target
    }

    /// Whether the cell at (x, y) is inside.
    package func contains(x: Int, y: Int) -> Bool {
        x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.maxY
    }
}

extension ViewState {
    /// A mouse event: wheel scrolls three rows; a click runs what its region says. A click on
    /// the selected row (or a double click on any row) opens it, like Enter.
    mutating func handle(_ event: MouseEvent, context: FrameInfo) -> Reaction {
        if showHelp {
            switch event.kind {
            case .wheelUp: helpScroll = max(0, helpScroll - 3)
            case .wheelDown: helpScroll += 3
            case .click, .doubleClick: showHelp = false; helpScroll = 0
            }
            return .redraw
        }
        guard prompt == nil else { return .none }
        switch event.kind {
        case .wheelUp:
            select(context.selectedIndex - 3, context: context, follow: false)
            return .redraw
        case .wheelDown:
            let last = context.rowKeys.count - 1
            select(context.selectedIndex + 3, context: context, follow: context.selectedIndex + 3 >= last)
            return .redraw
        case .click, .doubleClick:
            guard let region = context.regions.last(where: { $0.contains(x: event.x, y: event.y) }) else {
                return .none
            }
            switch region.target {
            case .action(let action):
                return reduce(action, context: context)
            case .column(let column):
                if (table.sortColumn ?? context.sortColumn) == column {
                    table.inverted.toggle()
                } else {
                    table.sortColumn = column
                    table.inverted = false
                }
                return .redraw
            case .row(let row):
                if row == context.selectedIndex || event.kind == .doubleClick {
                    select(row, context: context, follow: false)
                    var opened = context
                    opened.selectedIndex = row
                    return reduce(.drillDown, context: opened)
                }
                select(row, context: context, follow: false)
                return .redraw
            }
        }
    }
}
