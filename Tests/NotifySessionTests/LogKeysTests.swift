import Foundation
import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifySession
@testable import NotifyTUI
import Testing

/// k9s's log keys in views 3, 5 and 6: `m` marks, `C` clears (and undoes), `w` wraps.
struct LogKeysTests {
    /// Frame data after the first `count` fixture events, at the last one's time (no idle tick,
    /// so later events are later than anything marked here).
    static func data(first count: Int? = nil) -> DashboardData {
        let all = Fixture.events()
        var model = InspectorState()
        var tail = EventTail()
        for event in all.prefix(count ?? all.count) {
            model.apply(event)
            tail.append(event)
        }
        return DashboardData(model: model, tail: tail, status: SessionStatus(mode: .live))
    }

    /// Presses `keys` with the frame rendered from `data` before each key.
    @discardableResult
    static func press(
        _ keys: [Key], _ view: inout ViewState, data: DashboardData, size: Size = Size(width: 120, height: 40),
        glyphs: Glyphs = .unicode
    ) -> (canvas: Canvas, info: FrameInfo) {
        var frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
        for key in keys {
            _ = view.handle(key, context: frame.info)
            frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
        }
        return frame
    }

    static let early = 40

    @Test("m drops a numbered mark: a separator between the deliveries before it and after it, listed in the title")
    func markSeparatesBeforeAndAfter() throws {
        var view = ViewState(view: .threads)
        let before = Self.press([.char("m")], &view, data: Self.data(first: Self.early))
        #expect(before.info.rowKeys.last == .mark(1))
        let (canvas, info) = Self.press([], &view, data: Self.data())
        let lines = canvas.lines
        let markLine = try #require(lines.firstIndex { $0.hasPrefix("── mark 1 · ") })
        #expect(lines[markLine].hasSuffix("────"))
        let markKey = try #require(info.rowKeys.firstIndex(of: .mark(1)))
        #expect(markKey > 0 && markKey < info.rowKeys.count - 1, "deliveries on both sides of the mark")
        let earlyRows = Self.press([], &view, data: Self.data(first: Self.early)).info.rowKeys.count - 1
        #expect(markKey == earlyRows)
        #expect(lines[4].contains("marks 1: 1 @"))
    }

    @Test("marks number up, sit in time order in Events, and the ASCII separator uses dashes")
    func asciiAndNumbering() throws {
        var view = ViewState(view: .events)
        Self.press([.char("m")], &view, data: Self.data(first: 20))
        let (canvas, info) = Self.press([.char("m")], &view, data: Self.data(first: Self.early), glyphs: .ascii)
        let first = try #require(info.rowKeys.firstIndex(of: .mark(1)))
        let second = try #require(info.rowKeys.firstIndex(of: .mark(2)))
        #expect(first < second)
        #expect(second == info.rowKeys.count - 1)
        #expect(canvas.lines.contains { $0.hasPrefix("-- mark 2 - ") && $0.hasSuffix("---") })
        #expect(view.logs[.events]?.marks.map(\.number) == [1, 2])
    }

    @Test("C hides the log up to now while new rows still arrive; C again (or Esc) shows everything")
    func clearAndUndo() {
        var view = ViewState(view: .events)
        let full = Self.press([], &view, data: Self.data(first: Self.early)).info.rowKeys.count
        let cleared = Self.press([.char("C")], &view, data: Self.data(first: Self.early))
        #expect(cleared.info.rowKeys.isEmpty)
        #expect(cleared.info.hiddenRows == full)
        #expect(cleared.canvas.lines[4].contains("cleared \(full) (C shows)"))
        #expect(cleared.canvas.lines.contains { $0.contains("cleared \(full) rows; new ones appear here") })
        let later = Self.press([], &view, data: Self.data())
        #expect(later.info.rowKeys.count == Self.data().tail.events.count - full)
        #expect(later.info.rowKeys.count > 0)
        let restored = Self.press([.char("C")], &view, data: Self.data())
        #expect(restored.info.rowKeys.count == Self.data().tail.events.count)
        Self.press([.char("C")], &view, data: Self.data())
        let escaped = Self.press([.escape], &view, data: Self.data())
        #expect(escaped.info.hiddenRows == 0 && view.log.clearedThrough == nil)
    }

    @Test("a clear also hides the marks before it, and a mark placed after it shows")
    func clearHidesEarlierMarks() {
        var view = ViewState(view: .threads)
        Self.press([.char("m")], &view, data: Self.data(first: 30))
        Self.press([.char("C")], &view, data: Self.data(first: Self.early))
        let frame = Self.press([.char("m")], &view, data: Self.data())
        #expect(!frame.info.rowKeys.contains(.mark(1)))
        #expect(frame.info.rowKeys.last == .mark(2))
        #expect(frame.canvas.lines[4].contains("marks 1: 2 @"))
    }

    @Test("w wraps the flexible columns onto continuation lines instead of cutting them")
    func wrap() throws {
        var view = ViewState(view: .log)
        let size = Size(width: 50, height: 20)
        let cut = Self.press([], &view, data: Fixture.data(), size: size)
        #expect(cut.canvas.lines.contains { $0.contains("stream header: ShopDemo") && $0.hasSuffix("…") })
        let wrapped = Self.press([.char("w")], &view, data: Fixture.data(), size: size)
        #expect(wrapped.info.rowKeys.count > cut.info.rowKeys.count)
        #expect(wrapped.info.rowKeys.contains(.continuation(.action(1), part: 1)))
        let text = wrapped.canvas.lines.map { String($0.dropFirst(23)) }.joined().filter { $0 != " " }
        #expect(text.contains("streamheader:ShopDemopid4242,format1.0,NotifyKit0.1.0"))
        #expect(!wrapped.canvas.lines.contains { $0.contains("stream header") && $0.hasSuffix("…") })
        #expect(wrapped.canvas.lines[4].contains("wrap"))
        // Selecting a continuation line highlights the whole entry and Enter still resolves it.
        #expect(RowKey.continuation(.delivery(registration: 5, post: 12), part: 1).drillTarget == .registration(5))
        let back = Self.press([.char("w")], &view, data: Fixture.data(), size: size)
        #expect(back.info.rowKeys.count == cut.info.rowKeys.count)
    }

    @Test("in lanes, each thread's lane shows the mark and hides cleared deliveries")
    func lanes() {
        var view = ViewState(view: .threads)
        view.threadLayout = .lanes
        Self.press([.char("m")], &view, data: Self.data(first: Self.early))
        let frame = Self.press([], &view, data: Self.data())
        #expect(frame.canvas.lines.contains { $0.contains("── mark 1 · ") })
        let cleared = Self.press([.char("C")], &view, data: Self.data())
        #expect(cleared.info.hiddenRows > 0)
        #expect(!cleared.canvas.lines.contains { $0.contains("cartDidChange") })
    }

    @Test("m, C and w outside the logs say where they work and change nothing")
    func outsideLogs() {
        var view = ViewState(view: .names)
        let frame = Self.press([.char("m")], &view, data: Fixture.data())
        #expect(view.logs.isEmpty)
        #expect(frame.canvas.lines[4].contains("views 3, 5 and 6"))
    }

    @Test("marks and a clear survive pause and unpause")
    func survivesPause() {
        var view = ViewState(view: .threads)
        Self.press(
            [.char("p"), .char("m"), .char("C"), .char("m"), .char("p")], &view, data: Self.data(first: Self.early))
        #expect(view.log.marks.count == 2)
        #expect(view.log.clearedThrough != nil)
        let frame = Self.press([], &view, data: Self.data())
        #expect(frame.info.rowKeys.first == .mark(2), "the mark dropped before the clear is hidden with it")
        #expect(frame.info.rowKeys.count > 1)
    }

    @Test("Ctrl-S content keeps only the rows shown, with marks as lines between them, not as rows")
    func export() throws {
        var view = ViewState(view: .threads)
        Self.press([.char("m")], &view, data: Self.data(first: Self.early))
        let all = Dashboard.content(Self.data(), view: view, glyphs: .unicode)
        let deliveries = Self.data().model.threads.reduce(0) { $0 + $1.recentDeliveries.count }
        #expect(all.rows.count == deliveries)
        let note = try #require(all.notes.first)
        #expect(note.text == "── mark 1 · \(view.log.marks[0].label) ──")
        #expect(note.beforeRow > 0 && note.beforeRow < deliveries)
        let lines = all.text.split(separator: "\n")
        #expect(lines.count == deliveries + 2)
        #expect(lines[note.beforeRow + 1] == note.text[...])
        #expect(!all.csv.contains("mark 1"))
        Self.press([.char("C")], &view, data: Self.data(first: 50))
        let cleared = Dashboard.content(Self.data(), view: view, glyphs: .unicode)
        #expect(cleared.notes.isEmpty)
        #expect(cleared.rows.count == deliveries - Self.press([], &view, data: Self.data()).info.hiddenRows)
        #expect(cleared.rows.count < deliveries)
    }

    @Test("in a replay, a mark stays through stepping back and forward; it hides while the clock is before it")
    func replay() throws {
        let path = try ReplaySeekTests.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try ReplaySeekTests.session(
            path, keys: [.char("5"), .char("]"), .char("]"), .char("m"), .char("]")])
        let marked = Dashboard.render(
            session.data, view: session.view, size: Size(width: 100, height: 40), glyphs: .unicode)
        let position = try #require(marked.info.rowKeys.firstIndex(of: .mark(1)))
        #expect(position > 0 && position < marked.info.rowKeys.count - 1)
        let back = try ReplaySeekTests.session(
            path,
            keys: [
                .char("5"), .char("]"), .char("]"), .char("m"), .char("["),
                .char("["),
            ])
        #expect(back.view.log.marks.count == 1)
        let early = Dashboard.render(back.data, view: back.view, size: Size(width: 100, height: 40), glyphs: .unicode)
        #expect(!early.info.rowKeys.contains(.mark(1)))
    }
}

/// What the title line says about a clear.
struct LogClearStatusTests {
    @Test("a clear reports how many rows it hides, or that only new rows show once the tail dropped them all")
    func clearStatus() {
        var view = ViewState(view: .events)
        var log = view.log
        log.clearedThrough = 5
        view.log = log
        #expect(Dashboard.logStatus(view, hiddenRows: 3).contains("cleared 3 (C shows)"))
        #expect(Dashboard.logStatus(view, hiddenRows: 0).contains("cleared: new rows only (C shows all)"))
    }
}
