/// The non-ASCII symbols the dashboard draws, with an ASCII set for terminals and locales that
/// cannot show them (htop `-U`, btop `--force-utf` in reverse).
package struct Glyphs: Sendable, Hashable {
    /// Sparkline levels, lowest first.
    package var sparks: [Character]
    /// Marks text cut to fit.
    package var ellipsis: String
    /// Sort direction markers in column headers.
    package var ascending: String
    /// See ``ascending``.
    package var descending: String
    /// Separates breadcrumb parts.
    package var crumbSeparator: String
    /// Horizontal rule.
    package var horizontal: Character
    /// Vertical rule.
    package var vertical: Character
    /// Frame corners: top-left, top-right, bottom-left, bottom-right.
    package var corners: [Character]
    /// Multiplication sign in "REPLAY ×2".
    package var times: String
    /// Bullet for the selected row and lane markers.
    package var bullet: String
    /// A tree's branches: a child with siblings below, the last child, and the stem that carries
    /// on past a child to its siblings (the cascade pane).
    package var treeBranch: String
    /// See ``treeBranch``.
    package var treeLast: String
    /// See ``treeBranch``.
    package var treeStem: String

    /// Unicode block elements and box drawing.
    package static let unicode = Glyphs(
        sparks: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"], ellipsis: "…", ascending: "▲", descending: "▼",
        crumbSeparator: " › ", horizontal: "─", vertical: "│", corners: ["┌", "┐", "└", "┘"], times: "×",
        bullet: "●", treeBranch: "├─ ", treeLast: "└─ ",
        treeStem: "│  ")

    /// Seven-bit fallbacks.
    package static let ascii = Glyphs(
        sparks: ["_", ".", "-", "=", "+", "*", "#", "@"], ellipsis: "~", ascending: "^", descending: "v",
        crumbSeparator: " > ", horizontal: "-", vertical: "|", corners: ["+", "+", "+", "+"], times: "x",
        bullet: "*", treeBranch: "|- ", treeLast: "`- ",
        treeStem: "|  ")
}
