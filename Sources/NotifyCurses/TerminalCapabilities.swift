import Glibc
package import NotifyTUI

/// What the terminal on standard output can show, for frames printed without curses (`--batch`,
/// or the one plain frame when TERM is dumb): its size and whether Unicode glyphs are safe.
package enum TerminalCapabilities {
    /// The window size of the terminal on `descriptor`; nil when it is no terminal (a pipe, a file)
    /// or reports no size.
    package static func windowSize(of descriptor: Int32 = STDOUT_FILENO) -> Size? {
        guard isatty(descriptor) == 1 else { return nil }
        var window = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return nil
        }
        return Size(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    /// The size for a printed frame: `COLUMNS`/`LINES` when set (the user's choice), else the
    /// terminal's own size, else 120×40 (a pipe with no hint).
    package static func printedSize(environment: [String: String], terminal: Size?) -> Size {
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let lines = environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return Size(width: columns ?? terminal?.width ?? 120, height: lines ?? terminal?.height ?? 40)
    }

    /// Unicode glyphs only in a UTF-8 locale on a terminal that is not `dumb` (a dumb terminal may
    /// be a serial console or an editor's buffer that shows bytes, not characters); a pipe or file
    /// (`terminal` false) follows the locale alone.
    package static func glyphs(environment: [String: String], terminal: Bool, ascii: Bool = false) -> Glyphs {
        if ascii { return .ascii }
        if terminal, (environment["TERM"] ?? "").isEmpty || environment["TERM"] == "dumb" { return .ascii }
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let upper = locale.uppercased()
        return upper.contains("UTF-8") || upper.contains("UTF8") ? .unicode : .ascii
    }

    /// The process environment as a dictionary.
    package static var environment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
