import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import Testing

/// The breadcrumb names the level on screen, however deep the drill-down and however narrow the
/// terminal; each pane's table says what it lists.
struct BreadcrumbTests {
    private func press(
        _ keys: [Key], _ view: inout ViewState, data: DashboardData, width: Int = 140
    ) -> (Canvas, FrameInfo) {
        NotifyTUITestSupport.press(keys, &view, size: Size(width: width, height: 30), data: data)
    }

    /// The crumb line (the one under the tabs).
    private func crumb(_ canvas: Canvas) -> String {
        canvas.lines.first { $0.hasPrefix("Leaks") || $0.hasPrefix("Events") } ?? ""
    }

    @Test("warning › effects › registration: each level is named, the effects without repeating the warning")
    func effectsThenRegistration() throws {
        let data = CascadePaneTests.data()
        var view = ViewState(view: .leaks)
        _ = try CascadePaneTests.selectDuplicateWarning(&view, data: data)
        let (effects, _) = press([.enter, .char("x")], &view, data: data)
        #expect(crumb(effects).contains("R5 DUPLICATE_REGISTRATION"))
        #expect(crumb(effects).hasSuffix("› effects") || crumb(effects).contains("› effects "))
        #expect(!crumb(effects).contains("effects of"))
        let (registration, _) = press([.enter], &view, data: data)
        #expect(view.path.count == 3)
        #expect(crumb(registration).contains("› effects › #2"))
    }

    @Test("too long for the terminal: the middle levels give way to an ellipsis, the current one stays")
    func narrowKeepsTheCurrentLevel() throws {
        let data = CascadePaneTests.data()
        var view = ViewState(view: .leaks)
        _ = try CascadePaneTests.selectDuplicateWarning(&view, data: data, width: 60)
        let (canvas, _) = press([.enter, .char("x"), .enter], &view, data: data, width: 60)
        let line = crumb(canvas)
        #expect(line.hasPrefix("Leaks › … › "))
        #expect(line.contains("#2"))
        #expect(
            Dashboard.fitCrumbs(["A", "bbbb", "cccc", "dd"], width: 12, separator: " › ", glyphs: .unicode)
                == "A › … › dd")
        #expect(Dashboard.fitCrumbs(["A", "b", "c"], width: 40, separator: " › ", glyphs: .unicode) == "A › b › c")
    }

    @Test("the posted-by pane's table is headed POSTED BY, the cascade's CASCADE")
    func paneHeaders() throws {
        let data = CascadePaneTests.data()
        var view = ViewState(view: .events)
        let (_, events) = press([], &view, data: data)
        let index = try #require(
            events.rowKeys.firstIndex { if case .event(10, _) = $0 { true } else { false } })
        view.table.selectedIndex = index
        view.table.selectedKey = events.rowKeys[index]
        view.table.follow = false
        let (chain, _) = press([.char("u")], &view, data: data)
        #expect(chain.lines.contains { $0.hasPrefix("POSTED BY") })
        let (tree, _) = press([.escape, .char("c")], &view, data: data)
        #expect(tree.lines.contains { $0.hasPrefix("CASCADE") })
    }
}
