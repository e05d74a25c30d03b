import NotifyTUI
import NotifyTUITestSupport
import Testing

struct FilterFrameTests {
    @Test("a field query keeps only names with more than four posts")
    func namesByPosts() {
        var view = ViewState(view: .names)
        let (canvas, info) = press([.char("/")] + keystrokes("posts>4 name!=*") + [.enter], &view)
        #expect(info.rowKeys == [.name("cartDidChange")])
        #expect(canvas.lines[4].contains("Filter: posts>4 name!=*"))
    }

    @Test("the threads log filters by thread and duration with units")
    func threadsByDuration() {
        var view = ViewState(view: .threads)
        let (canvas, info) = press([.char("/")] + keystrokes("thread!=main dur>100ms") + [.enter], &view)
        #expect(info.rowKeys == [.delivery(registration: 4, post: 5)])
        #expect(canvas.lines.contains { $0.contains("userDidLogin") && $0.contains("150ms") })
    }

    @Test("a regex filter with ! inverts it")
    func invertedRegex() {
        var view = ViewState(view: .names)
        let (_, info) = press([.char("/")] + keystrokes("!~^user") + [.enter], &view)
        #expect(Set(info.rowKeys) == [.name("cartDidChange"), .name("通知センター"), .name("*")])
    }

    @Test("a malformed query shows a one-line error in the filter line and keeps the previous filter")
    func malformedKeepsPrevious() {
        var view = ViewState(view: .names)
        _ = press([.char("/")] + keystrokes("cart") + [.enter], &view)
        let (canvas, info) = press(
            [.char("/")] + keystrokes("thread=main") + [.enter], &view)
        #expect(view.prompt?.error?.contains("unknown field thread") == true)
        #expect(canvas.lines[4].contains("✗ unknown field thread"))
        #expect(view.table.filter == "cart")
        #expect(info.rowKeys == [.name("cartDidChange")])
        _ = view.handle(.escape, context: info)
        #expect(view.prompt == nil && view.table.filter == "")
    }
}
