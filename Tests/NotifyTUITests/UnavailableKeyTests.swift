import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import Testing

/// A key that does nothing where it is pressed says why in the breadcrumb line, as the help lists
/// it: `0` and Esc at the top under `--pid`, `--demo` or a replay, which have no process overview.
struct UnavailableKeyTests {
    static let size = Size(width: 120, height: 40)

    static func crumbLine(after keys: [Key], isReplay: Bool = false) -> (String, ViewState) {
        var data = Fixture.data()
        if isReplay { data.status.mode = .replay(speed: 1, paused: true) }
        var view = ViewState()
        var frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
        for key in keys {
            _ = view.handle(key, context: frame.info)
            frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
        }
        return (frame.canvas.lines[4], view)
    }

    @Test("0 without a process overview says what would give one")
    func zero() {
        let (line, view) = Self.crumbLine(after: [.char("0")])
        #expect(line.contains("view 0 (processes) needs notifytop run without --pid or --demo"), "\(line)")
        #expect(!view.showsOverview && view.view == .names)
        let (replay, _) = Self.crumbLine(after: [.char("0")], isReplay: true)
        #expect(replay.contains("a replay has no view 0 (processes)"), "\(replay)")
        // The next key clears it.
        let (cleared, _) = Self.crumbLine(after: [.char("0"), .down])
        #expect(!cleared.contains("view 0"))
    }

    @Test("Esc with nothing to back out of says it is at the top, and why there is no view 0")
    func escapeAtTheTop() {
        let (line, view) = Self.crumbLine(after: [.escape])
        #expect(line.contains("at the top; view 0 (processes) needs notifytop run without --pid or --demo"), "\(line)")
        #expect(view.path.isEmpty && !view.showsOverview)
        // Esc that backs out of something says nothing.
        let (drilled, _) = Self.crumbLine(after: [.enter, .escape])
        #expect(!drilled.contains("at the top"), "\(drilled)")
    }

    @Test("Esc on the overview, the top of everything, says what Enter does there")
    func escapeOnTheOverview() {
        var view = ViewState()
        view.showsOverview = true
        var context = FrameInfo(rowKeys: [.process(7)])
        context.hasOverview = true
        #expect(view.handle(.escape, context: context).redraw)
        #expect(view.notice?.text == "at the top (view 0): Enter attaches the selected process")
        #expect(view.showsOverview)
    }
}
