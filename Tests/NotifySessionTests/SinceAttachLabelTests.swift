import Foundation
import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// A stream that began late carries history: its posts and deliveries are whole, but handler
/// times cover only its own events, and the Names view and `--json` say so.
struct SinceAttachLabelTests {
    /// The fixture's events after a history line for a name and thread it already has.
    static var lateEvents: [TraceEvent] {
        var events = Fixture.events()
        let threads = events.compactMap { if case .thread(let thread) = $0 { thread.id } else { nil } }
        let thread = threads.first ?? 1
        let header = events.firstIndex { $0.kind == .header }.map { $0 + 1 } ?? 0
        events.insert(
            .history(TraceHistory(timestamp: 1, thread: thread, name: "cartDidChange", posts: 40, deliveries: 80)),
            at: events.firstIndex { $0.kind == .posted } ?? header)
        return events
    }

    private func names(_ data: DashboardData) throws -> [[String: Any]] {
        let line = BatchJSON.line(data, view: ViewState(view: .names), iteration: 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["rows"] as? [[String: Any]])
    }

    @Test("handler-time columns are titled since attach only when the stream began late")
    func columnTitles() {
        let size = Size(width: 120, height: 30)
        let whole = Dashboard.render(Fixture.data(), view: ViewState(view: .names), size: size, glyphs: .unicode).canvas
            .lines.joined(separator: "\n")
        let late = Dashboard.render(
            Fixture.data(Self.lateEvents), view: ViewState(view: .names), size: size, glyphs: .unicode
        ).canvas.lines.joined(separator: "\n")
        #expect(!whole.contains("ATTACH AVG"))
        #expect(late.contains("ATTACH AVG") && late.contains("ATTACH P99") && late.contains("ATTACH MAX"))
    }

    @Test("the header's slowest handler says since attach only when the stream began late")
    func headerLabel() {
        let size = Size(width: 140, height: 30)
        let whole = Dashboard.render(Fixture.data(), view: ViewState(view: .names), size: size, glyphs: .unicode).canvas
            .lines[1]
        let late = Dashboard.render(
            Fixture.data(Self.lateEvents), view: ViewState(view: .names), size: size, glyphs: .unicode
        ).canvas.lines[1]
        #expect(whole.contains("slowest") && !whole.contains("since attach"), "\(whole)")
        #expect(late.contains("slowest since attach"), "\(late)")
    }

    @Test("--json names handler times …_since_attach when the stream began late")
    func jsonFields() throws {
        let whole = try names(Fixture.data())
        let late = try names(Fixture.data(Self.lateEvents))
        #expect(whole.contains { $0["max_handler_ns"] != nil })
        #expect(!whole.contains { $0["max_handler_ns_since_attach"] != nil })
        #expect(late.contains { $0["max_handler_ns_since_attach"] != nil })
        #expect(!late.contains { $0["max_handler_ns"] != nil || $0["avg_handler_ns"] != nil })
        let cart = try #require(late.first { $0["name"] as? String == "cartDidChange" })
        let wholeCart = try #require(whole.first { $0["name"] as? String == "cartDidChange" })
        #expect(cart["posts"] as? Int == (wholeCart["posts"] as? Int).map { $0 + 40 })
    }
}
