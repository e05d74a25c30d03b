/// A frame as text with ANSI SGR colour codes (a `.ans` file): what the screen looked like, in
/// colour, for a bug report, using the same palette the terminal uses.
package enum AnsiDump {
    /// Renders every row, switching attributes only where the style changes, and resetting at the
    /// end of each line so a pager shows each line on its own.
    package static func render(_ canvas: Canvas, depth: ColorDepth, theme: Theme = .standard) -> String {
        var output = ""
        for y in 0..<canvas.size.height {
            var current: Style?
            var line = ""
            for cell in canvas.row(y) where !cell.isContinuation {
                if cell.style != current {
                    line += sgr(Palette.look(for: cell.style, depth: depth, theme: theme))
                    current = cell.style
                }
                line.append(cell.character)
            }
            output += line + "\u{1B}[0m\n"
        }
        return output
    }

    /// `ESC[0;1;38;5;231;48;5;24m`: reset, then the look's attributes and colours.
    static func sgr(_ look: Look) -> String {
        var codes = ["0"]
        if look.bold { codes.append("1") }
        if look.dim { codes.append("2") }
        if look.underline { codes.append("4") }
        if look.reverse { codes.append("7") }
        if look.foreground >= 0 { codes.append(color(look.foreground, base: 30, bright: 90, extended: 38)) }
        if look.background >= 0 { codes.append(color(look.background, base: 40, bright: 100, extended: 48)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func color(_ number: Int16, base: Int, bright: Int, extended: Int) -> String {
        switch number {
        case 0..<8: "\(base + Int(number))"
        case 8..<16: "\(bright + Int(number) - 8)"
        default: "\(extended);5;\(number)"
        }
    }
}
