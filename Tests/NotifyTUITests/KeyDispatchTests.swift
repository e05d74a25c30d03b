import NotifyTUI
import Testing

private let table = FrameInfo(
    rowKeys: [.name("a"), .name("b"), .name("c"), .name("d"), .name("e")], pageSize: 2, sortableColumns: [0, 2, 3],
    sortColumn: 2, selectedIndex: 1, scroll: 0)

struct KeyDispatchTests {
    @Test(
        "every key in the key table dispatches its binding's action (a replay binding may reuse a key, in replays only)",
        arguments: Keymap.standard.bindings)
    func everyBinding(binding: KeyBinding) {
        for key in binding.keys {
            let isReplay = binding.context == .replay
            let owner = Keymap.standard.bindings.first { $0.keys.contains(key) && ($0.context == .replay) == isReplay }!
            #expect(Keymap.standard.action(for: key, isReplay: isReplay) == owner.action, "\(key)")
            #expect(owner.action == binding.action, "\(key) is bound twice")
        }
    }

    @Test("every binding has a label and a help line")
    func labels() {
        for binding in Keymap.standard.bindings {
            #expect(!binding.label.isEmpty && !binding.help.isEmpty && !binding.keys.isEmpty)
        }
    }

    @Test("replay keys do nothing live, recording does nothing in a replay")
    func contexts() {
        #expect(Keymap.standard.action(for: .char("."), isReplay: false) == nil)
        #expect(Keymap.standard.action(for: .char("."), isReplay: true) == .stepEvent)
        #expect(Keymap.standard.action(for: .char("r"), isReplay: true) == nil)
        #expect(Keymap.standard.action(for: .char("r"), isReplay: false) == .toggleRecording)
    }

    @Test(
        "the everyday keys dispatch their actions",
        arguments: [
            (Key.char("q"), Action.quit), (.function(10), .quit), (.char("?"), .toggleHelp),
            (.function(1), .toggleHelp),
            (.char("1"), .show(.names)), (.char("5"), .show(.events)), (.tab, .nextView), (.char("j"), .moveDown),
            (.up, .moveUp), (.pageDown, .pageDown), (.home, .home), (.end, .end), (.char("/"), .editFilter),
            (.char("s"), .sortNext), (.function(6), .sortNext), (.char("I"), .invertSort), (.char("p"), .togglePause),
            (.char(" "), .togglePause), (.char("+"), .faster), (.char("-"), .slower), (.enter, .drillDown),
            (.escape, .back), (.backspace, .back),
        ])
    func everydayKeys(key: Key, action: Action) {
        #expect(Keymap.standard.action(for: key) == action)
    }

    @Test("views: digits, @, Tab and Shift-Tab wrap around, through the action log (view 6)")
    func views() {
        var state = ViewState()
        _ = state.handle(.char("4"), context: table)
        #expect(state.view == .leaks)
        _ = state.handle(.tab, context: table)
        _ = state.handle(.tab, context: table)
        #expect(state.view == .log)
        _ = state.handle(.tab, context: table)
        #expect(state.view == .names)
        _ = state.handle(.backTab, context: table)
        #expect(state.view == .log)
        _ = state.handle(.backTab, context: table)
        #expect(state.view == .events)
        _ = state.handle(.char("@"), context: table)
        #expect(state.view == .log)
    }

    @Test("moving selects by key and scrolls to keep the selection in view")
    func moving() {
        var state = ViewState()
        _ = state.handle(.down, context: table)
        #expect(state.table.selectedKey == .name("c") && state.table.scroll == 1)
        _ = state.handle(.end, context: table)
        #expect(state.table.selectedKey == .name("e") && state.table.scroll == 3)
        _ = state.handle(.pageUp, context: table)
        #expect(state.table.selectedKey == .name("a") || state.table.selectedIndex == max(0, 1 - 2))
    }

    @Test("Enter drills into the selected row, Esc goes back, and each level keeps its own table")
    func drilling() {
        var state = ViewState()
        #expect(state.handle(.enter, context: table).redraw)
        #expect(state.path == [.name("b")])
        #expect(state.tableKey == "1/name:b")
        let inner = FrameInfo(rowKeys: [.registration(7)], pageSize: 5, selectedIndex: 0)
        _ = state.handle(.enter, context: inner)
        #expect(state.path == [.name("b"), .registration(7)])
        _ = state.handle(.escape, context: inner)
        _ = state.handle(.backspace, context: table)
        #expect(state.path.isEmpty)
        // At the top, Esc does nothing and says why.
        #expect(state.handle(.escape, context: table).redraw)
        #expect(state.path.isEmpty && state.notice?.isError == true)
    }

    @Test("a row that is not a drill target does not drill")
    func noDrill() {
        var state = ViewState()
        let log = FrameInfo(rowKeys: [.event(seq: 1, registration: nil)], selectedIndex: 0)
        #expect(state.handle(.enter, context: log) == .none)
    }

    @Test("typing a filter: characters go into it, Enter keeps it, Esc clears it")
    func filter() {
        var state = ViewState()
        _ = state.handle(.char("/"), context: table)
        #expect(state.editingFilter)
        for key: Key in [.char("q"), .char("x"), .backspace, .char("y")] {
            _ = state.handle(key, context: table)
        }
        #expect(state.table.filter == "qy")
        _ = state.handle(.enter, context: table)
        #expect(!state.editingFilter && state.table.filter == "qy")
        _ = state.handle(.escape, context: table)
        #expect(state.table.filter == "")
    }

    @Test("sort cycles through the sortable columns; I inverts")
    func sorting() {
        var state = ViewState()
        _ = state.handle(.char("s"), context: table)
        #expect(state.table.sortColumn == 3)
        var next = table
        next.sortColumn = 3
        _ = state.handle(.function(6), context: next)
        #expect(state.table.sortColumn == 0)
        _ = state.handle(.char("<"), context: table)
        #expect(state.table.sortColumn == 0)
        _ = state.handle(.char("I"), context: table)
        #expect(state.table.inverted)
    }

    @Test("session commands: pause, record, delay, replay transport")
    func commands() {
        var state = ViewState()
        #expect(state.handle(.char("p"), context: table).command == .togglePause)
        #expect(state.paused)
        #expect(state.handle(.char("r"), context: table).command == .toggleRecording)
        #expect(state.handle(.char("+"), context: table).command == .scaleDelay(0.5))
        var replay = table
        replay.isReplay = true
        #expect(state.handle(.char("."), context: replay).command == .stepEvents(1))
        #expect(state.handle(.char("}"), context: replay).command == .scaleSpeed(2))
        #expect(state.handle(.char("q"), context: replay).quit)
    }

    @Test("help opens with ? and any key closes it without acting")
    func help() {
        var state = ViewState()
        _ = state.handle(.char("?"), context: table)
        #expect(state.showHelp)
        #expect(state.handle(.char("q"), context: table).quit == false)
        #expect(!state.showHelp)
    }

    @Test("the help scrolls with ↓ and PgUp and closes on any other key, back at the top")
    func helpScrolls() {
        var state = ViewState()
        _ = state.handle(.char("?"), context: table)
        _ = state.handle(.down, context: table)
        _ = state.handle(.pageDown, context: table)
        #expect(state.showHelp && state.helpScroll == 11)
        _ = state.handle(.pageUp, context: table)
        #expect(state.helpScroll == 1)
        var canvas = Canvas(size: Size(width: 100, height: 20))
        HelpOverlay.draw(keymap: .standard, isReplay: false, glyphs: .unicode, scroll: 3, into: &canvas)
        #expect(canvas.lines.contains { $0.contains("↑ 3 more above") })
        #expect(canvas.lines.contains { $0.contains("more below") })
        var ascii = Canvas(size: Size(width: 100, height: 20))
        HelpOverlay.draw(keymap: .standard, isReplay: false, glyphs: .ascii, scroll: 3, into: &ascii)
        #expect(
            ascii.lines[0].contains("Keys (up/down PgUp PgDn scroll")
                && ascii.lines.contains { $0.contains("^ 3 more above") })
        _ = state.handle(.char("x"), context: table)
        #expect(!state.showHelp && state.helpScroll == 0)
    }

    @Test("F5 regroups observers and switches the threads layout")
    func regroup() {
        var state = ViewState(view: .observers)
        _ = state.handle(.function(5), context: table)
        #expect(state.grouping == .observer)
        state.view = .threads
        _ = state.handle(.char("t"), context: table)
        #expect(state.threadLayout == .lanes)
    }
}
