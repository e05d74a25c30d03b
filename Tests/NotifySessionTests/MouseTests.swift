import Foundation
@testable import NotifyCurses
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import Testing

private let size = Size(width: 120, height: 40)

private func click(_ x: Int, _ y: Int, _ kind: MouseEvent.Kind = .click) -> Key { .mouse(MouseEvent(kind, x: x, y: y)) }

/// Runs keys through a session on an in-memory terminal and returns it.
private func run(_ keys: [Key], view: ViewID = .names) -> (DashboardSession, InMemoryTerminal) {
    let session = DashboardSession(source: .fixed(Fixture.events()), view: ViewState(view: view))
    let terminal = InMemoryTerminal(size: size, keys: keys)
    _ = session.run(on: terminal, maxFrames: keys.count + 1)
    return (session, terminal)
}

/// The column where `title` starts in the header row of the names table.
private func column(_ title: String) -> Int {
    let (canvas, _) = Dashboard.render(Fixture.data(), view: ViewState(), size: size, glyphs: .unicode)
    let header = canvas.lines[5]
    return header.distance(from: header.startIndex, to: header.range(of: title)!.lowerBound)
}

struct MouseTests {
    @Test("clicking a column header sorts by it; clicking it again inverts")
    func headerSorts() {
        var (session, _) = run([click(column("POSTS") + 2, 5)])
        #expect(session.view.table.sortColumn == 2 && !session.view.table.inverted)
        (session, _) = run([click(column("POSTS") + 2, 5), click(column("POSTS") + 2, 5)])
        #expect(session.view.table.inverted)
    }

    @Test("clicking a row selects it; clicking it again opens it; a double click opens at once")
    func rows() {
        var (session, terminal) = run([click(3, 7)])
        let (_, info) = Dashboard.render(Fixture.data(), view: ViewState(), size: size, glyphs: .unicode)
        #expect(session.view.table.selectedKey == info.rowKeys[1])
        #expect(session.view.path.isEmpty)
        (session, terminal) = run([click(3, 7), click(3, 7)])
        #expect(session.view.path == [info.rowKeys[1].drillTarget!])
        (session, terminal) = run([click(3, 8, .doubleClick)])
        #expect(session.view.path == [info.rowKeys[2].drillTarget!])
        #expect(terminal.lastFrame!.lines[4].hasPrefix("Names › "))
    }

    @Test("the wheel moves the selection three rows")
    func wheel() {
        let (session, _) = run([.home, click(10, 10, .wheelDown)])
        #expect(session.view.table.selectedIndex == 3)
        let (back, _) = run([.home, click(10, 10, .wheelDown), click(10, 10, .wheelUp)])
        #expect(back.view.table.selectedIndex == 0)
    }

    @Test("clicking a footer key runs its binding; clicking a tab shows its view")
    func footerAndTabs() {
        var (session, terminal) = run([click(2, 39)])
        #expect(session.view.showHelp)
        #expect(terminal.lastFrame!.lines.contains { $0.contains("any other key closes") })
        let quitX = terminal.frames[0].lines[39].range(of: "F10Quit").map {
            terminal.frames[0].lines[39].distance(from: terminal.frames[0].lines[39].startIndex, to: $0.lowerBound)
        }!
        let quit = DashboardSession(source: .fixed(Fixture.events()))
        #expect(quit.run(on: InMemoryTerminal(size: size, keys: [click(quitX + 1, 39)])) == .quit)
        (session, _) = run([click(37, 3)])
        #expect(session.view.view == .leaks)
    }

    @Test("a click outside any region, or while typing a prompt, does nothing")
    func ignored() {
        let (session, _) = run([click(100, 1)])
        #expect(session.view == ViewState())
        let (typing, _) = run([.char("/"), click(37, 3)])
        #expect(typing.view.view == .names && typing.view.prompt != nil)
    }

    @Test("curses mouse reports decode to clicks and wheel turns")
    func decoding() {
        #expect(KeyDecoding.mouse(KeyDecoding.clicked, x: 4, y: 2) == click(4, 2))
        #expect(KeyDecoding.mouse(KeyDecoding.pressed, x: 4, y: 2) == click(4, 2))
        #expect(KeyDecoding.mouse(KeyDecoding.doubleClicked, x: 1, y: 1) == click(1, 1, .doubleClick))
        #expect(KeyDecoding.mouse(KeyDecoding.wheelUp, x: 0, y: 9) == click(0, 9, .wheelUp))
        #expect(KeyDecoding.mouse(KeyDecoding.wheelDown, x: 0, y: 9) == click(0, 9, .wheelDown))
        #expect(KeyDecoding.mouse(0, x: 0, y: 0) == nil)
    }
}
