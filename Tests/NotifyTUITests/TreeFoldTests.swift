import NotifyTUI
import NotifyTUITestSupport
import Testing

/// The grouped Observers view as a collapsible tree: `o` folds the selected group, `O` all.
struct TreeFoldTests {
    /// Moves the selection to the first row of `group` (by name) in the Observers view.
    static func select(_ group: String, _ view: inout ViewState) -> (Canvas, FrameInfo) {
        var frame = press([], &view)
        for _ in 0..<frame.1.rowKeys.count where frame.1.selectedGroup != group {
            frame = press([.down], &view)
        }
        return frame
    }

    @Test("a group's first row shows ▾; o folds it to one summary row: count, deliveries summed, live count")
    func foldOne() throws {
        var view = ViewState(view: .observers)
        let open = Self.select("cartDidChange", &view)
        #expect(open.0.lines[6].hasPrefix("▾ *"))
        #expect(open.1.rowKeys.count == 6)
        let (canvas, info) = press([.char("o")], &view)
        #expect(info.rowKeys.count == 4)
        #expect(info.rowKeys[info.selectedIndex] == .group("cartDidChange"), "the selection stays on the group")
        let row = try #require(canvas.lines.first { $0.hasPrefix("▸ cartDidChange") })
        #expect(row.contains("3 registrations"))
        #expect(row.contains(" 15 "), "5 + 5 + 5 deliveries")
        #expect(row.contains("3 live"), "an orphaned registration is still live")
        let reopened = press([.char("o")], &view)
        #expect(reopened.1.rowKeys.count == 6)
        #expect(
            reopened.1.rowKeys[reopened.1.selectedIndex] == .registration(1),
            "the selection lands on the group's first row")
    }

    @Test("O folds every group, again unfolds all; groups folded by default stay folded as they appear")
    func foldAll() {
        var view = ViewState(view: .observers)
        let folded = press([.char("O")], &view)
        #expect(folded.1.rowKeys.allSatisfy { $0.isGroup })
        #expect(folded.1.rowKeys.count == 4)
        let one = press([.char("o")], &view)
        #expect(one.1.rowKeys.count == 4, "the only member of the selected group replaces its summary")
        #expect(press([.char("*")], &view).1.rowKeys.allSatisfy { $0.isGroup })
        #expect(press([.char("O")], &view).1.rowKeys.count == 6)
    }

    @Test("Enter on a folded group unfolds it, and Enter again opens the registration it lands on")
    func enterUnfolds() {
        var view = ViewState(view: .observers)
        press([.char("O"), .end], &view)
        let unfolded = press([.enter], &view)
        let selected = unfolded.1.rowKeys[unfolded.1.selectedIndex]
        guard case .registration = selected else {
            Issue.record("\(selected) is not a registration row: \(unfolded.1.rowKeys)")
            return
        }
        #expect(unfolded.1.rowKeys.filter { $0.isGroup }.count == 3)
        press([.enter], &view)
        #expect(view.path.count == 1)
    }

    @Test("the filter applies to members: a folded group counts only matching rows; search finds folded groups")
    func filterAndSearch() throws {
        var view = ViewState(view: .observers)
        press([.char("O")], &view)
        let (canvas, info) = press([.char("/")] + keystrokes("block") + [.enter], &view)
        let row = try #require(canvas.lines.first { $0.hasPrefix("▸ cartDidChange") })
        #expect(row.contains("2 registrations"))
        #expect(info.rowKeys.count == 2)
        var searched = ViewState(view: .observers)
        press([.char("O"), .function(3)] + keystrokes("BadgeView") + [.enter], &searched)
        let found = press([], &searched)
        #expect(found.1.rowKeys[found.1.selectedIndex] == .group("通知センター"))
    }

    @Test("folding is per grouping; ASCII uses + and -; Left and Esc still go back, never fold")
    func asciiAndBack() {
        var view = ViewState(view: .observers)
        press([.char("o")], &view)
        view.grouping = .thread
        let ascii = Dashboard.render(Fixture.data(), view: view, size: Size(width: 120, height: 40), glyphs: .ascii)
        #expect(ascii.canvas.lines[6].hasPrefix("- "))
        #expect(!ascii.info.rowKeys.contains { $0.isGroup })
        var drill = ViewState(view: .names)
        press([.enter, .char("o")], &drill)
        #expect(drill.path.count == 1)
        #expect(drill.folding.isEmpty)
        press([.left], &drill)
        #expect(drill.path.isEmpty)
    }
}

/// Enter in a warning's detail, where most lines are evidence.
struct LeakDetailEnterTests {
    @Test("Enter on an evidence line of a warning's detail opens the first registration it lists")
    func enterOpensFirstRegistration() throws {
        var view = ViewState(view: .leaks)
        press([.enter], &view)
        guard case .warning? = view.path.last else {
            Issue.record("Enter on a warning did not open its detail: \(view.path)")
            return
        }
        press([.enter], &view)
        guard case .registration? = view.path.last else {
            Issue.record("Enter in the detail opened nothing: \(view.path)")
            return
        }
    }
}
