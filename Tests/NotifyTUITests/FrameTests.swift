import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifyTUI
import Testing

private let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

struct FrameTests {
    @Test("every view at 80x24 and 120x40 matches its snapshot", arguments: ViewID.allCases, sizes)
    func views(view: ViewID, size: Size) {
        let (canvas, _) = Dashboard.render(Fixture.data(), view: ViewState(view: view), size: size, glyphs: .unicode)
        assertSnapshot(canvas, named: "\(view.title.lowercased())-\(size)")
    }

    @Test("the observers view groups by name, observer and thread", arguments: ObserverGrouping.allCases)
    func grouping(grouping: ObserverGrouping) {
        var view = ViewState(view: .observers)
        view.grouping = grouping
        let (canvas, _) = Dashboard.render(Fixture.data(), view: view, size: sizes[1], glyphs: .unicode)
        assertSnapshot(canvas, named: "observers-by-\(grouping.rawValue)")
    }

    @Test("the threads view in lanes")
    func lanes() {
        var view = ViewState(view: .threads)
        view.threadLayout = .lanes
        let (canvas, _) = Dashboard.render(Fixture.data(), view: view, size: sizes[1], glyphs: .unicode)
        assertSnapshot(canvas, named: "threads-lanes")
    }

    @Test("drill-down: name, then its observers, then one observer's deliveries, with a breadcrumb")
    func drillDown() {
        let data = Fixture.data()
        var view = ViewState(view: .names)
        var (canvas, info) = Dashboard.render(data, view: view, size: sizes[0], glyphs: .unicode)
        let row = info.rowKeys.firstIndex(of: .name("通知センター"))!
        for _ in 0..<row {
            _ = view.handle(.down, context: info);
            info = Dashboard.render(data, view: view, size: sizes[0], glyphs: .unicode).info
        }
        _ = view.handle(.enter, context: info)
        (canvas, info) = Dashboard.render(data, view: view, size: sizes[0], glyphs: .unicode)
        #expect(canvas.lines[4].hasPrefix("Names › 通知センター"))
        assertSnapshot(canvas, named: "drill-name")
        _ = view.handle(.enter, context: info)
        (canvas, info) = Dashboard.render(data, view: view, size: sizes[0], glyphs: .unicode)
        #expect(canvas.lines[4].hasPrefix("Names › 通知センター › #3 BadgeView@0x"))
        assertSnapshot(canvas, named: "drill-registration")
        _ = view.handle(.escape, context: info)
        _ = view.handle(.escape, context: info)
        #expect(view.path.isEmpty)
    }

    @Test("a leak's detail shows evidence and the fix")
    func leakDetail() {
        let data = Fixture.data()
        var view = ViewState(view: .leaks)
        let (_, info) = Dashboard.render(data, view: view, size: sizes[1], glyphs: .unicode)
        #expect(!info.rowKeys.isEmpty)
        _ = view.handle(.enter, context: info)
        let (canvas, _) = Dashboard.render(data, view: view, size: sizes[1], glyphs: .unicode)
        #expect(canvas.lines.contains { $0.contains("Fix") })
        // The breadcrumb names the warning as the table does, not by its internal key (`R1 site#4`).
        #expect(canvas.lines[4].hasPrefix(#"Leaks › R1 ORPHANED_REGISTRATION "cartDidChange" Demo/Checkout.swift:9"#))
        assertSnapshot(canvas, named: "leak-detail")
    }

    @Test("before any event, every view says what it is waiting for", arguments: ViewID.allCases)
    func empty(view: ViewID) {
        let data = DashboardData(
            model: InspectorState(), status: SessionStatus(mode: .connecting("waiting for ShopDemo")))
        let (canvas, _) = Dashboard.render(data, view: ViewState(view: view), size: sizes[0], glyphs: .unicode)
        assertSnapshot(canvas, named: "empty-\(view.title.lowercased())")
    }

    @Test(
        "a tiny terminal gets a message, not a crash",
        arguments: [
            Size(width: 30, height: 8), Size(width: 1, height: 1),
            Size(width: 0, height: 0), Size(width: 40, height: 10),
        ])
    func tiny(size: Size) {
        let (canvas, _) = Dashboard.render(Fixture.data(), view: ViewState(), size: size, glyphs: .unicode)
        #expect(canvas.size == size)
        if size.width >= 40 { #expect(canvas.lines[0].contains("notifytop")) }
        if size == Size(width: 30, height: 8) { assertSnapshot(canvas, named: "tiny") }
    }

    @Test("ASCII glyphs and a paused badge (mono terminals rely on the style layer, checked here too)")
    func asciiPaused() {
        let (canvas, _) = Dashboard.render(
            Fixture.data(paused: true), view: ViewState(view: .names), size: sizes[0],
            glyphs: .ascii)
        #expect(canvas.lines.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII || $0.value > 0x2E80 } })
        #expect(canvas.lines[0].contains("PAUSED +17"))
        assertSnapshot(canvas, named: "ascii-paused")
    }

    @Test("the help overlay at 80x24")
    func help() {
        var view = ViewState()
        view.showHelp = true
        let (canvas, _) = Dashboard.render(Fixture.data(), view: view, size: sizes[0], glyphs: .unicode)
        assertSnapshot(canvas, named: "help")
    }

    @Test("replay badge shows speed and position; filter stays visible")
    func replayAndFilter() {
        var data = Fixture.data()
        data.status.mode = .replay(speed: 2, paused: false)
        var view = ViewState(view: .names)
        view.table.filter = "cart"
        let (canvas, info) = Dashboard.render(data, view: view, size: sizes[0], glyphs: .unicode)
        #expect(canvas.lines[0].contains("REPLAY ×2 @"))
        #expect(canvas.lines[4].contains("Filter: cart"))
        #expect(info.rowKeys == [.name("cartDidChange")])
        #expect(info.isReplay)
    }
}
