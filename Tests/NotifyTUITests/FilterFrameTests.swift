import NotifyTUI
import Testing

private let size = Size(width: 120, height: 40)

/// Types `text` into the filter prompt, rendering between keys as the run loop does.
private func type(_ keys: [Key], into view: inout ViewState) -> (Canvas, FrameInfo) {
    let data = Fixture.data()
    var frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
    for key in keys {
        _ = view.handle(key, context: frame.info)
        frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
    }
    return frame
}

private func keys(_ text: String) -> [Key] { text.map { .character($0) } }

struct FilterFrameTests {
    @Test("a field query keeps only names with more than four posts")
    func namesByPosts() {
        var view = ViewState(view: .names)
        let (canvas, info) = type([.char("/")] + keys("posts>4 name!=*") + [.enter], into: &view)
        #expect(info.rowKeys == ["name:cartDidChange"])
        #expect(canvas.lines[4].contains("Filter: posts>4 name!=*"))
    }

    @Test("the threads log filters by thread and duration with units")
    func threadsByDuration() {
        var view = ViewState(view: .threads)
        let (canvas, info) = type([.char("/")] + keys("thread!=main dur>100ms") + [.enter], into: &view)
        #expect(info.rowKeys == ["reg:4#5"])
        #expect(canvas.lines.contains { $0.contains("userDidLogin") && $0.contains("150ms") })
    }

    @Test("a regex filter with ! inverts it")
    func invertedRegex() {
        var view = ViewState(view: .names)
        let (_, info) = type([.char("/")] + keys("!~^user") + [.enter], into: &view)
        #expect(Set(info.rowKeys) == ["name:cartDidChange", "name:通知センター", "name:*"])
    }

    @Test("a malformed query shows a one-line error in the filter line and keeps the previous filter")
    func malformedKeepsPrevious() {
        var view = ViewState(view: .names)
        _ = type([.char("/")] + keys("cart") + [.enter], into: &view)
        let (canvas, info) = type([.char("/"), .backspace, .backspace, .backspace, .backspace] + keys("thread=main")
                                  + [.enter], into: &view)
        #expect(view.prompt?.error?.contains("unknown field thread") == true)
        #expect(canvas.lines[4].contains("✗ unknown field thread"))
        #expect(view.table.filter == "cart")
        #expect(info.rowKeys == ["name:cartDidChange"])
        _ = view.handle(.escape, context: info)
        #expect(view.prompt == nil && view.table.filter == "")
    }
}
