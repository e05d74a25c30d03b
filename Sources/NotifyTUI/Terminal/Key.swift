/// A key press, decoded from whatever the backend reads; never a curses code.
///
/// Keeping our own enum means the keymap, the reducer and their tests know nothing about
/// ncurses, and ``InMemoryTerminal`` can script keys by name.
package enum Key: Sendable, Hashable, CustomStringConvertible {
    /// A printable character.
    case character(Character)
    /// Ctrl plus a letter, given in lower case (`.control("l")` is Ctrl-L).
    case control(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Enter or Return.
    case enter
    /// Escape.
    case escape
    /// Backspace.
    case backspace
    /// Delete.
    case delete
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// A function key, F1 to F12.
    case function(Int)
    /// The terminal changed size (curses reports it as a key).
    case resize
    /// A click or a wheel turn (unless `--no-mouse`).
    case mouse(MouseEvent)

    /// How help and the footer spell the key: `q`, `F10`, `Space`, `PgDn`.
    package var description: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let character): "^" + String(character).uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .function(let number): "F\(number)"
        case .resize: "Resize"
        case .mouse(let event): "Mouse(\(event.kind) \(event.x),\(event.y))"
        }
    }

    /// Shorthand for a printable key.
    package static func char(_ character: Character) -> Key { .character(character) }
}
