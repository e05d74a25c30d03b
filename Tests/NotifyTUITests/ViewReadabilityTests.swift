import NotifyCurses
import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import Testing

/// What a hands-on trial found hard to read: header counts, table positions, the filter editor,
/// a reattach's leftover page, and frames printed to a dumb terminal.
struct ViewReadabilityTests {
    @Test("the header labels each leak count with its severity, not one word for all")
    func headerCounts() {
        let (canvas, _) = Dashboard.render(
            Fixture.data(), view: ViewState(view: .names), size: Size(width: 160, height: 30), glyphs: .unicode)
        let counts = canvas.lines[2]
        #expect(counts.contains("leaks: "))
        #expect(!counts.contains("warnings 1") && !counts.contains(" err "))
        #expect(counts.contains(" error") || counts.contains(" warning") || counts.contains(" info"))
    }

    @Test("the breadcrumb shows the selected row and the total, and filtered of total under a filter")
    func position() {
        var view = ViewState(view: .observers)
        var (canvas, info) = press([.down], &view)
        #expect(info.shownRows == 6 && info.rowPosition == 2)
        #expect(canvas.lines[4].hasSuffix("2/6"))
        view.table.filter = "cartDidChange"
        (canvas, info) = press([], &view)
        #expect(canvas.lines[4].contains("/3 of 6"))
    }

    @Test("/ opens an empty filter that replaces the old one; Up recalls the old text to edit")
    func filterReplaces() {
        var view = ViewState(view: .observers)
        view.table.filter = "cart"
        press([.char("/")], &view)
        #expect(view.prompt?.text == "" && view.table.filter == "cart", "the old filter stays until typing")
        press([.up], &view)
        #expect(view.prompt?.text == "cart")
        press([.backspace, .backspace, .backspace, .backspace, .char("u")], &view)
        #expect(view.table.filter == "u")
    }

    @Test("a filter naming an unknown field keeps the previous filter, not a prefix of the typing")
    func filterError() {
        var view = ViewState(view: .observers)
        view.table.filter = "cart"
        let (canvas, _) = press([.char("/"), .char("d"), .char("u"), .char("r"), .char(">"), .char("5")], &view)
        #expect(view.prompt?.error != nil)
        #expect(view.table.filter == "cart")
        #expect(!canvas.lines.joined().contains("no rows match"))
    }

    @Test("the lanes layout filters deliveries with the merged log's fields: thread!=main dur>5us")
    func lanesFilter() throws {
        var view = ViewState(view: .threads)
        view.threadLayout = .lanes
        view.table.filter = "thread!=main dur>5us"
        let (canvas, info) = press([], &view)
        _ = try FilterQuery("thread!=main dur>5us", fields: info.fields)
        #expect(!info.rowKeys.isEmpty)
        #expect(!canvas.lines[5].contains("main "), "the main thread's lane is filtered out")
        view.table.filter = "thread=nosuch"
        let (empty, _) = press([], &view)
        #expect(empty.lines.joined().contains("no delivery matches the filter"))
    }

    @Test("a reattach drops drill-downs and selections that named the old process, keeping filters")
    func reattachPage() {
        var view = ViewState(view: .observers)
        view.table.filter = "cart"
        view.table.selectedIndex = 4
        view.table.selectedKey = .registration(3)
        view.drill[.observers] = [.registration(3)]
        view.drill[.names] = [.name("cartDidChange")]
        view.forgetProcess()
        #expect(view.path.isEmpty && view.drill.isEmpty)
        #expect(view.table.filter == "cart" && view.table.selectedIndex == 0 && view.table.selectedKey == nil)
    }

    @Test("a printed frame takes the terminal's width unless COLUMNS says otherwise")
    func printedSize() {
        let pane = Size(width: 100, height: 30)
        #expect(TerminalCapabilities.printedSize(environment: [:], terminal: pane) == pane)
        #expect(TerminalCapabilities.printedSize(environment: ["COLUMNS": "80"], terminal: pane).width == 80)
        #expect(TerminalCapabilities.printedSize(environment: [:], terminal: nil) == Size(width: 120, height: 40))
    }

    @Test("a dumb terminal gets ASCII glyphs even in a UTF-8 locale; a pipe follows the locale")
    func dumbGlyphs() {
        let utf8 = ["LANG": "C.UTF-8"]
        #expect(
            TerminalCapabilities.glyphs(environment: utf8.merging(["TERM": "dumb"]) { $1 }, terminal: true) == .ascii)
        #expect(
            TerminalCapabilities.glyphs(environment: utf8.merging(["TERM": "xterm"]) { $1 }, terminal: true) == .unicode
        )
        #expect(TerminalCapabilities.glyphs(environment: utf8, terminal: false) == .unicode)
        #expect(TerminalCapabilities.glyphs(environment: ["LANG": "C"], terminal: false) == .ascii)
    }
}
