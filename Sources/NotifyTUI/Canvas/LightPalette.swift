/// The light theme: dark text on light backgrounds. Every role sets its background, so the
/// screen is light whatever the terminal's own background is. Yellow is never a foreground (it
/// vanishes on white); warnings use magenta on 8/16 colours and dark orange on 256. Tests check
/// every role's contrast against xterm's colour values.
enum LightPalette {
    // ncurses colour numbers.
    private static let black: Int16 = 0, red: Int16 = 1, green: Int16 = 2, yellow: Int16 = 3
    private static let blue: Int16 = 4, magenta: Int16 = 5, cyan: Int16 = 6, white: Int16 = 7

    /// 8 colours (light grey paper) and 16 colours (bright white paper).
    static func basic(_ style: Style, bright: Bool) -> Look {
        let paper: Int16 = bright ? 15 : white
        let grey: Int16 = bright ? 8 : black
        switch style {
        case .normal: return Look(foreground: black, background: paper)
        case .dim: return Look(foreground: grey, background: paper, dim: !bright)
        case .title: return Look(foreground: paper, background: blue, bold: true)
        case .label: return Look(foreground: blue, background: paper)
        case .value: return Look(foreground: black, background: paper, bold: true)
        case .badgeLive: return Look(foreground: black, background: green, bold: true)
        case .badgePaused: return Look(foreground: black, background: yellow, bold: true)
        case .badgeReplay: return Look(foreground: black, background: cyan, bold: true)
        case .badgeEnded, .recording: return Look(foreground: paper, background: red, bold: true)
        case .columnHeader: return Look(foreground: black, background: bright ? 10 : green)
        case .columnSorted: return Look(foreground: black, background: bright ? 14 : cyan, bold: true)
        case .selected: return Look(foreground: paper, background: blue)
        case .error: return Look(foreground: red, background: paper, bold: true)
        case .warning: return Look(foreground: magenta, background: paper, bold: true)
        case .info: return Look(foreground: blue, background: paper)
        // Green text is too pale on white: "all well" gets a green band instead.
        case .ok: return Look(foreground: black, background: bright ? 10 : green)
        case .sparkline: return Look(foreground: blue, background: paper)
        case .footerKey: return Look(foreground: black, background: paper, bold: true)
        case .footerLabel: return Look(foreground: black, background: bright ? 14 : cyan)
        case .filter: return Look(foreground: black, background: bright ? 11 : yellow)
        case .breadcrumb: return Look(foreground: blue, background: paper, bold: true)
        case .tabActive: return Look(foreground: paper, background: black, bold: true)
        case .tabInactive: return Look(foreground: black, background: paper)
        case .overlay: return Look(foreground: black, background: bright ? white : cyan)
        case .match: return Look(foreground: black, background: bright ? 11 : yellow, underline: true)
        }
    }

    /// The xterm 256-colour palette on white (231).
    static func full(_ style: Style) -> Look {
        let paper: Int16 = 231
        switch style {
        case .normal: return Look(foreground: 235, background: paper)
        case .dim: return Look(foreground: 243, background: paper)
        case .title: return Look(foreground: paper, background: 25, bold: true)
        case .label: return Look(foreground: 24, background: paper)
        case .value: return Look(foreground: 16, background: paper, bold: true)
        case .badgeLive: return Look(foreground: paper, background: 28, bold: true)
        case .badgePaused: return Look(foreground: 16, background: 214, bold: true)
        case .badgeReplay: return Look(foreground: paper, background: 31, bold: true)
        case .badgeEnded, .recording: return Look(foreground: paper, background: 160, bold: true)
        case .columnHeader: return Look(foreground: 16, background: 151)
        case .columnSorted: return Look(foreground: 16, background: 117, bold: true)
        case .selected: return Look(foreground: 16, background: 153)
        case .error: return Look(foreground: 160, background: paper, bold: true)
        case .warning: return Look(foreground: 130, background: paper, bold: true)
        case .info: return Look(foreground: 25, background: paper)
        case .ok: return Look(foreground: 28, background: paper)
        case .sparkline: return Look(foreground: 28, background: paper)
        case .footerKey: return Look(foreground: 16, background: paper, bold: true)
        case .footerLabel: return Look(foreground: 16, background: 152)
        case .filter: return Look(foreground: 16, background: 229)
        case .breadcrumb: return Look(foreground: 94, background: paper, bold: true)
        case .tabActive: return Look(foreground: paper, background: 238, bold: true)
        case .tabInactive: return Look(foreground: 240, background: paper)
        case .overlay: return Look(foreground: 16, background: 254)
        case .match: return Look(foreground: 16, background: 222)
        }
    }
}
