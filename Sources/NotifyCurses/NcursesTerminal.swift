import CNcurses
#if canImport(Glibc)
import Glibc
#endif
package import NotifyTUI

/// The real terminal: ncursesw behind `TerminalBackend`. The only type in the package that
/// calls curses.
///
/// It opens the screen with `newterm` (which fails softly on a bad TERM, unlike `initscr`),
/// switches to the user's locale first so UTF-8 text survives, picks the colour depth
/// (256/16/8, or mono for NO_COLOR), maps each `Style` to a colour pair once, and presents
/// frames by rewriting only the rows that changed, flushing with one `doupdate`. Nothing is
/// written at all when a frame equals the previous one.
///
/// - Warning: Use from one thread only. Call ``shutdown()`` on every exit path; signals that
///   end the process are routed through ``TerminalSignals`` so the terminal is restored.
package final class NcursesTerminal: TerminalBackend {
    /// Why the terminal could not be opened; the caller falls back to batch output.
    package enum OpenError: Error, CustomStringConvertible {
        /// stdin or stdout is not a terminal.
        case notATerminal
        /// TERM is unset, empty or `dumb`.
        case dumbTerminal
        /// `newterm` rejected TERM.
        case unknownTerminal(String)

        /// A one-line note for the user.
        package var description: String {
            switch self {
            case .notATerminal: "not a terminal"
            case .dumbTerminal: "TERM is unset or dumb"
            case .unknownTerminal(let term): "unknown terminal type \"\(term)\""
            }
        }
    }

    /// Start-up choices from the command line.
    package struct Options: Sendable {
        /// Use attributes only, as with NO_COLOR (`-C`).
        package var monochrome: Bool
        /// Use ASCII glyphs even in a UTF-8 locale.
        package var asciiOnly: Bool
        /// Report clicks and the wheel (`--no-mouse` turns it off, leaving text selection to the
        /// terminal).
        package var mouse: Bool

        /// Creates options.
        package init(monochrome: Bool = false, asciiOnly: Bool = false, mouse: Bool = true) {
            self.monochrome = monochrome
            self.asciiOnly = asciiOnly
            self.mouse = mouse
        }
    }

    /// Unicode glyphs in a UTF-8 locale, ASCII otherwise (or with `--ascii`).
    package let glyphs: Glyphs
    /// 256/16/8 colours from the terminfo entry, or mono for NO_COLOR and `-C`.
    package let colorDepth: ColorDepth
    private let screen: OpaquePointer
    private let utf8: Bool
    private var previous: Canvas?
    private var attributes: [Style: (attr_t, Int16)] = [:]
    private var isOpen = true
    private var defaults = false
    private var chosenTheme: Theme = .standard

    /// Opens the terminal, or explains why it cannot be used.
    package static func open(options: Options = Options()) throws(OpenError) -> NcursesTerminal {
        guard isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 else { throw .notATerminal }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else { throw .dumbTerminal }
        setlocale(LC_ALL, "")
        guard let screen = cn_newterm() else { throw .unknownTerminal(term) }
        return NcursesTerminal(screen: screen, options: options)
    }

    private init(screen: OpaquePointer, options: Options) {
        self.screen = screen
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        utf8 = String(codeset.uppercased().filter { $0 != "-" }) == "UTF8"
        glyphs = utf8 && !options.asciiOnly ? .unicode : .ascii
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        Self.disableFlowControl()
        if options.mouse {
            mousemask(KeyDecoding.mask, nil)
        }
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if options.monochrome || noColor || !has_colors() {
            colorDepth = .mono
        } else {
            start_color()
            let colors = cn_colors()
            colorDepth = colors >= 256 ? .full : colors >= 16 ? .sixteen : colors >= 8 ? .eight : .mono
        }
        defaults = colorDepth != .mono && use_default_colors() == OK
        applyLooks()
        TerminalSignals.install()
    }

    /// The theme in use: ``Theme/mono`` whenever the terminal shows no colour.
    package var theme: Theme { colorDepth == .mono ? .mono : chosenTheme }

    /// Switches the colour pairs to `theme` and repaints the whole screen with them.
    package func setTheme(_ theme: Theme) {
        chosenTheme = theme
        guard isOpen else { return }
        applyLooks()
        invalidate()
    }

    /// Maps every ``Style`` to attributes and a colour pair for the current theme and depth,
    /// and gives the window the theme's background, so blank space matches (the light theme).
    private func applyLooks() {
        for style in Style.allCases {
            let look = Palette.look(for: style, depth: colorDepth, theme: theme)
            var pair: Int16 = 0
            if colorDepth != .mono, look.foreground != -1 || look.background != -1 {
                pair = Int16(style.rawValue) + 1
                let fg = look.foreground == -1 && !defaults ? 7 : look.foreground
                let bg = look.background == -1 && !defaults ? 0 : look.background
                init_pair(pair, fg, bg)
            }
            var attrs = cn_a_normal()
            if look.bold { attrs |= cn_a_bold() }
            if look.reverse { attrs |= cn_a_reverse() }
            if look.dim { attrs |= cn_a_dim() }
            if look.underline { attrs |= cn_a_underline() }
            attributes[style] = (attrs, pair)
        }
        let background = attributes[.normal]?.1 ?? 0
        wbkgd(cn_stdscr(), chtype(cn_color_pair(Int32(background))) | chtype(UInt8(ascii: " ")))
    }

    /// Turns off XON/XOFF so Ctrl-S reaches us (k9s's save key) instead of freezing the
    /// terminal; `endwin` restores the shell's settings, flow control included.
    private static func disableFlowControl() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        settings.c_iflag &= ~tcflag_t(IXON)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return }
        def_prog_mode()
    }

    deinit { shutdown() }

    /// The screen size curses knows, updated on KEY_RESIZE.
    package var size: Size {
        Size(width: Int(getmaxx(cn_stdscr())), height: Int(getmaxy(cn_stdscr())))
    }

    /// Rewrites the rows that differ from the last frame, then flushes once.
    package func present(_ canvas: Canvas) {
        guard isOpen else { return }
        let window = cn_stdscr()
        let full = previous?.size != canvas.size
        if full { werase(window) }
        var changed = 0
        for y in 0..<canvas.size.height {
            let row = canvas.row(y)
            if !full, let previous, previous.row(y) == row { continue }
            changed += 1
            write(row, y: y, window: window)
        }
        previous = canvas
        guard changed > 0 || full else { return }
        wnoutrefresh(window)
        doupdate()
    }

    private func write(_ row: ArraySlice<Cell>, y: Int, window: UnsafeMutablePointer<WINDOW>?) {
        wmove(window, Int32(y), 0)
        var run = ""
        var runStyle = row.first?.style ?? .normal
        func flush() {
            guard !run.isEmpty else { return }
            let (attrs, pair) = attributes[runStyle] ?? (cn_a_normal(), 0)
            cn_set_attr(window, attrs, pair)
            _ = cn_addnstr(window, run, -1)
            run.removeAll(keepingCapacity: true)
        }
        for cell in row where !cell.isContinuation {
            if cell.style != runStyle {
                flush()
                runStyle = cell.style
            }
            if utf8 || cell.character.isASCII {
                run.append(cell.character)
            } else {
                run.append(cell.width == 2 ? "??" : "?")
            }
        }
        flush()
    }

    /// Waits for a key with `wget_wch`, so keys, resizes and timeouts share one place.
    package func readKey(timeoutMilliseconds: Int) -> Key? {
        guard isOpen else { return nil }
        let window = cn_stdscr()
        if TerminalSignals.takeResumed() {
            // Stopped and resumed (`kill -STOP`, then `fg`): the shell left the terminal in line
            // mode. Leaving curses and refreshing takes it back (modes, keypad, cursor) and repaints.
            endwin()
            clearok(window, true)
            wrefresh(window)
            previous = nil
        }
        wtimeout(window, Int32(max(0, timeoutMilliseconds)))
        var code: wint_t = 0
        let result = wget_wch(window, &code)
        if result == ERR { return nil }
        if result == KEY_CODE_YES && Int32(code) == KEY_MOUSE {
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            return KeyDecoding.mouse(event.bstate, x: event.x, y: event.y)
        }
        let key = result == KEY_CODE_YES ? KeyDecoding.functionKey(Int32(code)) : KeyDecoding.character(UInt32(code))
        if key == .resize { previous = nil }
        return key
    }

    /// Forgets the last frame and asks curses to repaint everything (Ctrl-L).
    package func invalidate() {
        previous = nil
        if isOpen { clearok(cn_stdscr(), true) }
    }

    /// Ends curses (`endwin`), restoring the terminal; later calls do nothing.
    package func shutdown() {
        guard isOpen else { return }
        isOpen = false
        endwin()
        delscreen(screen)
        TerminalSignals.uninstall()
    }
}
