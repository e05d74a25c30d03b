/// How one `Style` looks at one colour depth: colours as curses numbers (-1 = the terminal's
/// default) and attributes. Kept apart from the curses calls so the table reads as a theme; the
/// curses backend and the screen dump (``AnsiDump``) both draw with it.
package struct Look: Equatable {
    package var foreground: Int16 = -1
    package var background: Int16 = -1
    package var bold = false
    package var reverse = false
    package var dim = false
    package var underline = false
}

/// The themes, each degrading 256 → 16 → 8 → mono (btop's `-l`/`-t`, htop's `-C`).
///
/// Mono uses attributes only, so every role stays distinguishable with NO_COLOR. Dark grey is
/// never used as a foreground on 8/16 colours, since some terminals draw it invisible (htop's
/// "Broken Gray" scheme exists for that).
package enum Palette {
    package static func look(for style: Style, depth: ColorDepth, theme: Theme = .standard) -> Look {
        if theme == .mono { return mono(style) }
        if theme == .light {
            switch depth {
            case .mono: return mono(style)
            case .eight: return LightPalette.basic(style, bright: false)
            case .sixteen: return LightPalette.basic(style, bright: true)
            case .full: return LightPalette.full(style)
            }
        }
        return switch depth {
        case .mono: mono(style)
        case .eight: eight(style, bright: false)
        case .sixteen: eight(style, bright: true)
        case .full: full(style)
        }
    }

    // ncurses colour numbers.
    private static let black: Int16 = 0, red: Int16 = 1, green: Int16 = 2, yellow: Int16 = 3
    private static let blue: Int16 = 4, magenta: Int16 = 5, cyan: Int16 = 6, white: Int16 = 7

    static func mono(_ style: Style) -> Look {
        switch style {
        case .normal, .info, .overlay, .label, .tabInactive, .footerLabel: Look()
        case .dim: Look(dim: true)
        case .title, .badgeLive, .badgePaused, .badgeReplay, .badgeEnded, .recording, .columnSorted:
            Look(bold: true, reverse: true)
        case .columnHeader, .selected, .tabActive: Look(reverse: true)
        case .value, .footerKey, .breadcrumb, .ok, .warning: Look(bold: true)
        case .error: Look(bold: true, underline: true)
        case .sparkline: Look()
        case .filter: Look(underline: true)
        case .match: Look(bold: true, underline: true)
        }
    }

    private static func eight(_ style: Style, bright: Bool) -> Look {
        let brightYellow: Int16 = bright ? 11 : yellow
        let brightGreen: Int16 = bright ? 10 : green
        let brightCyan: Int16 = bright ? 14 : cyan
        switch style {
        case .normal: return Look()
        case .dim: return Look(dim: true)
        case .title: return Look(foreground: white, background: blue, bold: true)
        case .label: return Look(foreground: cyan)
        case .value: return Look(bold: true)
        case .badgeLive: return Look(foreground: black, background: green, bold: true)
        case .badgePaused: return Look(foreground: black, background: yellow, bold: true)
        case .badgeReplay: return Look(foreground: black, background: cyan, bold: true)
        case .badgeEnded: return Look(foreground: white, background: red, bold: true)
        case .recording: return Look(foreground: white, background: red, bold: true)
        case .columnHeader: return Look(foreground: black, background: green)
        case .columnSorted: return Look(foreground: black, background: cyan, bold: true)
        case .selected: return Look(foreground: black, background: cyan)
        case .error: return Look(foreground: red, bold: true)
        case .warning: return Look(foreground: brightYellow, bold: bright ? false : true)
        case .info: return Look(foreground: brightCyan)
        case .ok: return Look(foreground: brightGreen)
        case .sparkline: return Look(foreground: green)
        case .footerKey: return Look(bold: true)
        case .footerLabel: return Look(foreground: black, background: cyan)
        case .filter: return Look(foreground: black, background: yellow)
        case .breadcrumb: return Look(foreground: yellow, bold: true)
        case .tabActive: return Look(foreground: black, background: white, bold: true)
        case .tabInactive: return Look()
        case .overlay: return Look(foreground: white, background: blue)
        case .match: return Look(foreground: black, background: brightYellow)
        }
    }

    private static func full(_ style: Style) -> Look {
        switch style {
        case .dim: Look(foreground: 245)
        case .title: Look(foreground: 231, background: 24, bold: true)
        case .label: Look(foreground: 110)
        case .badgeLive: Look(foreground: 16, background: 71, bold: true)
        case .badgePaused: Look(foreground: 16, background: 214, bold: true)
        case .badgeReplay: Look(foreground: 16, background: 81, bold: true)
        case .badgeEnded: Look(foreground: 231, background: 160, bold: true)
        case .recording: Look(foreground: 231, background: 160, bold: true)
        case .columnHeader: Look(foreground: 16, background: 71)
        case .columnSorted: Look(foreground: 16, background: 81, bold: true)
        case .selected: Look(foreground: 16, background: 117)
        case .error: Look(foreground: 196, bold: true)
        case .warning: Look(foreground: 214)
        case .info: Look(foreground: 81)
        case .ok: Look(foreground: 77)
        case .sparkline: Look(foreground: 77)
        case .footerLabel: Look(foreground: 16, background: 73)
        case .filter: Look(foreground: 16, background: 221)
        case .breadcrumb: Look(foreground: 221, bold: true)
        case .tabActive: Look(foreground: 16, background: 252, bold: true)
        case .tabInactive: Look(foreground: 250)
        case .overlay: Look(foreground: 231, background: 24)
        case .match: Look(foreground: 16, background: 186)
        default: eight(style, bright: true)
        }
    }
}
