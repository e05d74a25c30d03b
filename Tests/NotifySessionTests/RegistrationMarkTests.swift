import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// `b` marks the live registration set; Names then shows `+N/−M` per name since the mark and
/// Observers marks each registration added (`+`) or gone (`−`) since.
struct RegistrationMarkTests {
    /// Registrations 1 and 2 observe "a", 3 observes "b"; `after` runs once the first three exist.
    static func fold(after: (inout TraceScript) -> Void = { _ in }) -> (mark: InspectorState, now: InspectorState) {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.register(2, "a", site: 11)
        s.register(3, "b", site: 12)
        let marked = Fixture.data(s.events).model
        after(&s)
        return (marked, Fixture.data(s.events).model)
    }

    static func twoAddedOneRemoved(_ s: inout TraceScript) {
        s.advance(1_000_000)
        s.register(4, "a", site: 13)
        s.register(5, "c", site: 14)
        s.remove(3, reason: .explicit)
    }

    @Test("per name: registrations live now and not at the mark, and live then and not now")
    func changes() {
        let (marked, now) = Self.fold(after: Self.twoAddedOneRemoved)
        let changes = RegistrationMark(marked).changes(now)
        #expect(RegistrationMark(marked).live.count == 3)
        #expect(changes["a"]?.added == 1 && changes["a"]?.removed == 0)
        #expect(changes["b"]?.added == 0 && changes["b"]?.removed == 1)
        #expect(changes["c"]?.added == 1 && changes["c"]?.removed == 0)
        #expect(RegistrationMark(now).changes(now).isEmpty)
    }

    @Test("Names shows +N/−M since the mark in a last column, only once marked")
    func namesColumn() throws {
        let (marked, _) = Self.fold()
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.register(2, "a", site: 11)
        s.register(3, "b", site: 12)
        Self.twoAddedOneRemoved(&s)
        var data = Fixture.data(s.events)
        let view = ViewState(view: .names)
        #expect(!Dashboard.content(data, view: view, glyphs: .ascii).text.contains("SINCE"))
        data.status.registrationMark = RegistrationMark(marked)
        let lines = Dashboard.content(data, view: view, glyphs: .ascii).text.split(separator: "\n")
        #expect(try #require(lines.first).hasSuffix("SINCE"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("a ") && $0.hasSuffix("+1/-0") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("b ") && $0.hasSuffix("+0/-1") }, "\(lines)")
    }

    @Test("Observers marks the ID of rows added since the mark with + and of rows gone since with −")
    func observersMarker() {
        let (marked, now) = Self.fold(after: Self.twoAddedOneRemoved)
        let mark = RegistrationMark(marked)
        let markers = Dictionary(uniqueKeysWithValues: now.registrations.map { ($0.id, mark.marker($0, ascii: false)) })
        #expect(markers == [1: "", 2: "", 3: "−", 4: "+", 5: "+"])
        var data = Fixture.data([])
        data = DashboardData(model: now, status: data.status)
        data.status.registrationMark = mark
        let lines = Dashboard.content(data, view: ViewState(view: .observers), glyphs: .ascii).text.split(
            separator: "\n")
        #expect(lines.contains { $0.contains("-#3 ") }, "\(lines)")
        #expect(lines.contains { $0.contains("+#4 ") } && lines.contains { $0.contains("+#5 ") }, "\(lines)")
        #expect(lines.contains { $0.contains(" #1 ") } && !lines.contains { $0.contains("+#1 ") }, "\(lines)")
    }

    @Test("b asks the session to mark the registration set, in any table view")
    func key() {
        for view in [ViewID.names, .observers, .leaks] {
            var state = ViewState(view: view)
            #expect(state.handle(.char("b"), context: FrameInfo()).command == .markRegistrations)
        }
    }
}
