/// The bottom function-key bar, htop style: `F1Help  F4Filter …`, each with its letter alias
/// when there is room (`F1Help?`). Generated from the ``Keymap``.
package enum FooterBar {
    /// Draws the bar on row `y`.
    ///
    /// - Returns: Where each key is, so a click on it runs its action.
    @discardableResult
    package static func draw(keymap: Keymap, isReplay: Bool, y: Int, into canvas: inout Canvas) -> [HitRegion] {
        var regions: [HitRegion] = []
        let width = canvas.size.width
        canvas.fill(Rect(x: 0, y: y, width: width, height: 1), style: .footerLabel)
        let slots = keymap.footer(isReplay: isReplay)
        // First try with letter aliases, then without.
        for withAliases in [true, false] {
            let pieces = slots.map { piece(for: $0, withAlias: withAliases) }
            let total = pieces.reduce(0) { $0 + DisplayWidth.of($1.key) + DisplayWidth.of($1.label) + 1 }
            if total <= width || !withAliases {
                var x = 0
                for (piece, binding) in zip(pieces, slots) {
                    guard x < width else { break }
                    let start = x
                    x += canvas.write(piece.key, x: x, y: y, maxWidth: width - x, style: .footerKey)
                    x += canvas.write(piece.label, x: x, y: y, maxWidth: width - x, style: .footerLabel)
                    regions.append(
                        HitRegion(Rect(x: start, y: y, width: x - start, height: 1), .action(binding.action)))
                    x += 1
                }
                return regions
            }
        }
        return regions
    }

    private static func piece(for binding: KeyBinding, withAlias: Bool) -> (key: String, label: String) {
        let key = binding.keys.first.map(\.description) ?? ""
        var label = binding.label
        if withAlias,
            let alias = binding.keys.dropFirst().first(where: { if case .character = $0 { true } else { false } })
        {
            label += "(" + alias.description + ")"
        }
        return (key, label)
    }
}

/// The help overlay: a framed box listing the keymap, generated from the same table that
/// dispatches keys, so it cannot drift from what the keys do. Taller than the screen, it scrolls
/// with ↑/↓/PgUp/PgDn (the only keys it does not close on).
package enum HelpOverlay {
    /// The overlay's title, which says how to leave it.
    package static func title(_ glyphs: Glyphs) -> String {
        glyphs == .ascii
            ? "Keys (up/down PgUp PgDn scroll, any other key closes)"
            : "Keys (↑↓ PgUp PgDn scroll, any other key closes)"
    }

    /// Draws the overlay centred on the canvas, from line `scroll` of the help.
    package static func draw(keymap: Keymap, isReplay: Bool, glyphs: Glyphs, scroll: Int = 0, into canvas: inout Canvas)
    {
        let lines = keymap.helpLines(isReplay: isReplay)
        let title = title(glyphs)
        let up = glyphs == .ascii ? "^" : "↑", down = glyphs == .ascii ? "v" : "↓"
        let contentWidth = min(
            canvas.size.width - 4, max(DisplayWidth.of(title) + 2, lines.map(DisplayWidth.of).max() ?? 0))
        let contentHeight = min(canvas.size.height - 2, lines.count)
        guard contentWidth > 4, contentHeight > 0 else { return }
        let first = min(max(0, scroll), lines.count - contentHeight)
        let box = Rect(
            x: (canvas.size.width - contentWidth - 4) / 2, y: (canvas.size.height - contentHeight - 2) / 2,
            width: contentWidth + 4, height: contentHeight + 2)
        Frame.draw(box, title: title, glyphs: glyphs, style: .overlay, into: &canvas)
        for row in 0..<contentHeight {
            var text = lines[first + row]
            if row == 0 && first > 0 { text = "\(up) \(first) more above" }
            if row == contentHeight - 1 && first + contentHeight < lines.count {
                text = "\(down) \(lines.count - first - contentHeight) more below (\(down) or PgDn)"
            }
            canvas.write(
                text, x: box.x + 2, y: box.y + 1 + row, width: contentWidth, style: .overlay,
                ellipsis: glyphs.ellipsis)
        }
    }
}

/// A box outline with a title: used by the help overlay and the threads view's lanes.
package enum Frame {
    /// Draws the frame and blanks its inside in `style`.
    package static func draw(_ rect: Rect, title: String, glyphs: Glyphs, style: Style, into canvas: inout Canvas) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        canvas.fill(rect, style: style)
        let horizontal = String(repeating: glyphs.horizontal, count: rect.width - 2)
        let corners = glyphs.corners
        canvas.write(String(corners[0]) + horizontal + String(corners[1]), x: rect.x, y: rect.y, style: style)
        canvas.write(String(corners[2]) + horizontal + String(corners[3]), x: rect.x, y: rect.maxY - 1, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            canvas.write(String(glyphs.vertical), x: rect.x, y: y, style: style)
            canvas.write(String(glyphs.vertical), x: rect.x + rect.width - 1, y: y, style: style)
        }
        if !title.isEmpty {
            canvas.write(" " + title + " ", x: rect.x + 2, y: rect.y, maxWidth: rect.width - 4, style: style)
        }
    }
}
