import NotifyTUI
import NotifyTUITestSupport
import Testing

/// `x`: the explanation pane of the selected registration (Observers) or event (Events).
struct ExplainPaneTests {
    @Test("x on a registration opens its posts' verdicts as a table that filters like every table")
    func registration() throws {
        var view = ViewState(view: .observers)
        let (before, info) = press([], &view)
        guard case .registration(let id) = info.rowKeys[info.selectedIndex] else {
            Issue.record("the first Observers row is not a registration: \(info.rowKeys[info.selectedIndex])")
            return
        }
        _ = before
        let (canvas, pane) = press([.char("x")], &view)
        #expect(view.path.last == .explainRegistration(id))
        let screen = canvas.lines.joined(separator: "\n")
        #expect(screen.contains("REASON"))
        #expect(screen.contains("why: #\(id)"))
        #expect(!pane.rowKeys.isEmpty)
        let (filtered, narrowed) = press(keystrokes("/delivered") + [.enter], &view)
        #expect(narrowed.rowKeys.count <= pane.rowKeys.count)
        #expect(filtered.lines.contains { $0.contains("delivered") })
        _ = press([.escape, .escape], &view)
        #expect(view.path.isEmpty, "Esc clears the filter, then backs out of the pane")
    }

    @Test("x on an Events row opens the event's explanation; on a row that explains nothing it says so")
    func event() {
        var view = ViewState(view: .events)
        let (_, info) = press([.end], &view)
        guard case .event(let seq, _) = info.rowKeys[info.selectedIndex] else {
            Issue.record("the last Events row is not an event")
            return
        }
        _ = press([.char("x")], &view)
        #expect(view.path.last == .explainEvent(seq))
        var log = ViewState(view: .log)
        _ = press([.char("x")], &log)
        #expect(log.path.isEmpty)
        #expect(log.notice?.isError == true)
    }

    @Test("x on a Names row explains that name's last post, as x on a post does")
    func name() throws {
        var view = ViewState(view: .names)
        let (_, info) = press([], &view)
        guard case .name(let name) = info.rowKeys[info.selectedIndex] else {
            Issue.record("the first Names row is not a name: \(info.rowKeys[info.selectedIndex])")
            return
        }
        let (canvas, pane) = press([.char("x")], &view)
        #expect(view.path.last == .explainName(name))
        #expect(view.notice == nil)
        let screen = canvas.lines.joined(separator: "\n")
        #expect(screen.contains("why: \(name)"))
        #expect(screen.contains("REASON"))
        #expect(!pane.rowKeys.isEmpty)
        let posts = Set(
            pane.rowKeys.compactMap { key -> UInt64? in
                if case .event(let seq, _) = key { return seq }
                return nil
            })
        #expect(posts.count == 1, "only the name's last post is explained")
        _ = press([.escape], &view)
        #expect(view.path.isEmpty)
    }
}
