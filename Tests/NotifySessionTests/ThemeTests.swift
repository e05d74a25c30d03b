import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import Testing

/// WCAG relative luminance of an xterm-256 colour (16–255) or a basic one (0–15, xterm's values).
private func luminance(_ color: Int16) -> Double {
    let rgb: (Double, Double, Double)
    switch color {
    case 0..<16:
        let basic: [(Double, Double, Double)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        rgb = basic[Int(color)]
    case 16..<232:
        let index = Int(color) - 16
        let level: (Int) -> Double = { $0 == 0 ? 0 : Double($0 * 40 + 55) }
        rgb = (level(index / 36), level(index / 6 % 6), level(index % 6))
    default:
        let grey = Double(Int(color) - 232) * 10 + 8
        rgb = (grey, grey, grey)
    }
    func channel(_ value: Double) -> Double {
        let c = value / 255
        return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(rgb.0) + 0.7152 * channel(rgb.1) + 0.0722 * channel(rgb.2)
}

private func contrast(_ a: Int16, _ b: Int16) -> Double {
    let (x, y) = (luminance(a), luminance(b))
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    // exp(log) without Foundation's pow: enough for a test's luminance.
    var result = 1.0, term = 1.0
    let x = exponent * log(base)
    for n in 1..<40 { term *= x / Double(n); result += term }
    return result
}

private func log(_ value: Double) -> Double {
    // ln via atanh series; value is in (0, 1] here.
    let y = (value - 1) / (value + 1)
    var sum = 0.0, power = y
    for n in stride(from: 1, through: 199, by: 2) { sum += power / Double(n); power *= y * y }
    return 2 * sum
}

struct ThemeTests {
    @Test(
        "the light theme puts dark text on a light background for every role, readable at 256 and 16 colours",
        arguments: [ColorDepth.full, .sixteen])
    func lightIsReadable(depth: ColorDepth) {
        for style in Style.allCases {
            let look = Palette.look(for: style, depth: depth, theme: .light)
            #expect(look.foreground >= 0 && look.background >= 0, "\(style) sets both colours")
            let ratio = contrast(look.foreground, look.background)
            #expect(ratio >= 3, "\(style) at \(depth): contrast \(ratio)")
        }
        let paper = Palette.look(for: .normal, depth: depth, theme: .light)
        #expect(luminance(paper.background) > 0.8 && luminance(paper.foreground) < 0.1)
    }

    @Test("the mono theme uses attributes only, like NO_COLOR, at any depth", arguments: [ColorDepth.full, .eight])
    func mono(depth: ColorDepth) {
        for style in Style.allCases {
            let look = Palette.look(for: style, depth: depth, theme: .mono)
            #expect(look.foreground == -1 && look.background == -1)
            #expect(look == Palette.look(for: style, depth: .mono, theme: .standard))
        }
    }

    @Test("the palette's theme command switches the terminal's theme; unknown names are a one-line error")
    func paletteCommand() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        var keys: [Key] = [.char(":")] + "theme li".map { Key.character($0) } + [.tab, .enter]
        keys += [.char(":")] + "theme neon".map { Key.character($0) } + [.enter]
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 24), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
        #expect(terminal.theme == .light && session.view.theme == .light)
        #expect(terminal.lastFrame?.lines[4].contains("theme takes default, light, mono") == true)
    }

    @Test("the session hands its starting theme to the terminal")
    func startingTheme() {
        var view = ViewState()
        view.theme = .mono
        let session = DashboardSession(source: .fixed(Fixture.events()), view: view)
        let terminal = InMemoryTerminal(size: Size(width: 80, height: 24))
        _ = session.run(on: terminal, maxFrames: 1)
        #expect(terminal.theme == .mono)
    }

    @Test("the ANSI dump uses the theme's colours")
    func ansiTheme() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.write("ok", x: 0, y: 0, style: .normal)
        #expect(AnsiDump.render(canvas, depth: .full, theme: .light).hasPrefix("\u{1B}[0;38;5;235;48;5;231mok"))
        #expect(AnsiDump.render(canvas, depth: .full, theme: .mono).hasPrefix("\u{1B}[0mok"))
    }
}
