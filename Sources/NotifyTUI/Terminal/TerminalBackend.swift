/// How many colours a terminal can show; views never see this, only backends map ``Style``s.
package enum ColorDepth: Int, Sendable, Hashable, Comparable {
    /// Attributes only (bold, reverse, underline): NO_COLOR, `-C`, or a terminal without colour.
    case mono = 0
    /// The eight ANSI colours.
    case eight = 8
    /// Eight colours plus bright variants.
    case sixteen = 16
    /// The xterm 256-colour palette.
    case full = 256

    /// Orders by how many colours are available.
    package static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The little a renderer needs from a terminal: its size, a way to show a frame, and keys.
///
/// Two implementations exist: `NcursesTerminal` (in NotifyCurses, the only module that links
/// curses) and ``InMemoryTerminal``, which records frames and plays scripted keys. The run loop is
/// written against this protocol, so it runs the same in tests, batch mode and a real terminal.
///
/// - Warning: Call a backend from one thread only; curses is not thread-safe.
package protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Which glyphs the terminal and locale can show.
    var glyphs: Glyphs { get }
    /// The colour depth in use (after NO_COLOR and fallbacks).
    var colorDepth: ColorDepth { get }
    /// The colour scheme in use; NO_COLOR and mono terminals show every theme as ``Theme/mono``.
    var theme: Theme { get }
    /// Switches the colour scheme and repaints everything with it.
    func setTheme(_ theme: Theme)
    /// Shows a frame, writing only what differs from the previous one.
    func present(_ canvas: Canvas)
    /// Waits at most `timeoutMilliseconds` for a key; nil on timeout.
    func readKey(timeoutMilliseconds: Int) -> Key?
    /// Forgets the previous frame so the next ``present(_:)`` repaints everything (Ctrl-L).
    func invalidate()
    /// Restores the terminal; safe to call twice.
    func shutdown()
}
