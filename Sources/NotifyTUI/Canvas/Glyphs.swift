/// The non-ASCII symbols the dashboard draws, with an ASCII set for terminals and locales that
/// cannot show them (htop `-U`, btop `--force-utf` in reverse).
public struct Glyphs: Sendable, Hashable {
    /// Sparkline levels, lowest first.
    public var sparks: [Character]
    /// Marks text cut to fit.
    public var ellipsis: String
    /// Sort direction markers in column headers.
    public var ascending: String
    /// See ``ascending``.
    public var descending: String
    /// Separates breadcrumb parts.
    public var crumbSeparator: String
    /// Horizontal rule.
    public var horizontal: Character
    /// Vertical rule.
    public var vertical: Character
    /// Frame corners: top-left, top-right, bottom-left, bottom-right.
    public var corners: [Character]
    /// Multiplication sign in "REPLAY ×2".
    public var times: String
    /// Bullet for the selected row and lane markers.
    public var bullet: String

    /// Unicode block elements and box drawing.
    public static let unicode = Glyphs(
        sparks: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"], ellipsis: "…", ascending: "▲", descending: "▼",
        crumbSeparator: " › ", horizontal: "─", vertical: "│", corners: ["┌", "┐", "└", "┘"], times: "×",
        bullet: "●")

    /// Seven-bit fallbacks.
    public static let ascii = Glyphs(
        sparks: ["_", ".", "-", "=", "+", "*", "#", "@"], ellipsis: "~", ascending: "^", descending: "v",
        crumbSeparator: " > ", horizontal: "-", vertical: "|", corners: ["+", "+", "+", "+"], times: "x",
        bullet: "*")
}
