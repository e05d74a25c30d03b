import NotifyTUI
import NotifyTUITestSupport
import Testing

struct SearchTests {
    @Test("F3 searches; matches are highlighted; n and N visit them, wrapping")
    func searchAndVisit() {
        var view = ViewState(view: .threads)
        var (canvas, info) = press([.home, .function(3)] + keystrokes("dur>100us") + [.enter], &view)
        #expect(view.prompt == nil && view.table.search == "dur>100us")
        #expect(info.matchIndices.count >= 2)
        let first = info.matchIndices[0]
        #expect(info.selectedIndex == first)
        let matchedRow = info.matchIndices[1] - info.scroll + 6
        #expect(
            canvas.styleLines[matchedRow].allSatisfy { $0 == "m" },
            "the whole row, gaps included: \(canvas.styleLines[matchedRow])")
        (canvas, info) = press([.char("n")], &view)
        #expect(info.selectedIndex == info.matchIndices[1])
        (canvas, info) = press([.char("N"), .char("N")], &view)
        #expect(info.selectedIndex == info.matchIndices.last)
        #expect(canvas.lines[4].contains("Search: dur>100us"))
    }

    @Test("n without a search, or with no match, says so in one line")
    func noMatch() {
        var view = ViewState(view: .names)
        var (canvas, _) = press([.char("n")], &view)
        #expect(canvas.lines[4].contains("no search: F3 starts one"))
        (canvas, _) = press([.function(3)] + keystrokes("nothing-like-this") + [.enter], &view)
        #expect(canvas.lines[4].contains("no row matches"))
    }

    @Test("the selection keeps its row (by name) when the sort order changes")
    func selectionFollowsIdentity() {
        var view = ViewState(view: .names)
        var (_, info) = press([.home], &view)
        while info.rowKeys[info.selectedIndex] != .name("userDidLogin") { (_, info) = press([.down], &view) }
        var positions: Set<Int> = [info.selectedIndex]
        for _ in 0..<3 {
            (_, info) = press([.char("s")], &view)
            #expect(info.rowKeys[info.selectedIndex] == .name("userDidLogin"))
            positions.insert(info.selectedIndex)
        }
        (_, info) = press([.char("I")], &view)
        #expect(info.rowKeys[info.selectedIndex] == .name("userDidLogin"))
        positions.insert(info.selectedIndex)
        #expect(positions.count > 1, "the sorts moved the row, and the selection moved with it")
    }
}

struct PaletteTests {
    @Test("the palette lists every keymap action by name plus argument commands")
    func commands() {
        let names = CommandPalette.commands().map(\.name)
        for binding in Keymap.standard.bindings where binding.context != .replay {
            if let name = binding.action.commandName { #expect(names.contains(name), "\(name)") }
        }
        #expect(names.contains("sort") && names.contains("view names") && names.contains("quit"))
        #expect(!names.contains("step"))
        #expect(CommandPalette.commands(isReplay: true).map(\.name).contains("step"))
    }

    @Test("Tab completes to the longest common prefix, then the only candidate")
    func completion() {
        var view = ViewState(view: .names)
        var (canvas, _) = press([.char(":")] + keystrokes("vi") + [.tab], &view)
        #expect(view.prompt?.text == "view ")
        #expect(canvas.lines[4].contains("view names"))
        (canvas, _) = press(keystrokes("le") + [.tab], &view)
        #expect(view.prompt?.text == "view leaks")
        press([.enter], &view)
        #expect(view.view == .leaks && view.prompt == nil)
        press([.char("1"), .char(":")] + keystrokes("sort po") + [.tab], &view)
        #expect(view.prompt?.text == "sort posts")
    }

    @Test("palette commands run actions, sort by a named column (again inverts), set filter and search")
    func running() {
        var view = ViewState(view: .names)
        var (_, info) = press([.char(":")] + keystrokes("sort posts") + [.enter], &view)
        #expect(info.sortColumn == 2 && !view.table.inverted)
        (_, info) = press([.char(":")] + keystrokes("sort posts") + [.enter], &view)
        #expect(view.table.inverted)
        press([.char(":")] + keystrokes("filter posts>4") + [.enter], &view)
        #expect(view.table.filter == "posts>4")
        press([.char(":")] + keystrokes("search cart") + [.enter], &view)
        #expect(view.table.search == "cart")
        press([.char(":")] + keystrokes("expand") + [.enter], &view)
        #expect(view.expanded)
        var quit = view
        let (_, last) = press([.char(":")] + keystrokes("quit"), &quit)
        #expect(quit.handle(.enter, context: last).quit)
    }

    @Test("an unknown command is a one-line error; Esc cancels without running anything")
    func errors() {
        var view = ViewState(view: .names)
        var (canvas, _) = press([.char(":")] + keystrokes("frobnicate") + [.enter], &view)
        #expect(canvas.lines[4].contains("unknown command \"frobnicate\""))
        #expect(canvas.styleLines[4].contains("!"))
        (canvas, _) = press([.char(":")] + keystrokes("sort bogus") + [.enter], &view)
        #expect(canvas.lines[4].contains("unknown field bogus"))
        press([.char(":")] + keystrokes("view 4") + [.down], &view)
        #expect(view.prompt?.text == "view 4", "the palette stays open on arrows")
        press([.escape], &view)
        #expect(view.view == .names && view.prompt == nil)
        (canvas, _) = press([.char("j")], &view)
        #expect(!canvas.lines[4].contains("unknown"))
    }
}

struct ExpandTests {
    @Test("e gives the table the whole screen with a one-line breadcrumb; e again restores")
    func expand() {
        var view = ViewState(view: .names)
        let (normal, normalInfo) = press([], &view)
        let (canvas, info) = press([.char("e")], &view)
        #expect(canvas.lines[0].hasPrefix("Names  [e restores]"))
        #expect(!canvas.lines.contains { $0.contains("F1Help") })
        #expect(!canvas.lines.contains { $0.contains("posts/s") })
        #expect(info.pageSize == normalInfo.pageSize + 5)
        #expect(canvas.lines[1].hasPrefix("NAME"))
        let (restored, _) = press([.char("e")], &view)
        #expect(restored == normal)
    }
}
