import NotifyModel
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

@testable import NotifyTUI

/// TOKEN says what the app holds while a registration is live; an ended registration's token
/// holds nothing, so it reads `removed` (or `cancelled`), never `held`.
struct TokenColumnTests {
    private func data() -> DashboardData {
        var script = TraceScript()
        script.register(1, "cartDidChange", site: 101)
        script.register(2, "cartDidChange", site: 102)
        script.register(3, "cartDidChange", site: 103)
        script.remove(2, reason: .explicit)
        script.remove(3, reason: .tokenCancelled)
        return Fixture.data(script.events)
    }

    @Test("a removed registration shows removed in TOKEN and in its detail, a live one held")
    func removedIsNotHeld() throws {
        let data = data()
        let lines = Dashboard.render(
            data, view: ViewState(view: .observers), size: Size(width: 160, height: 30), glyphs: .unicode
        ).0.lines
        let live = try #require(lines.first { $0.contains("#1 ") })
        let removed = try #require(lines.first { $0.contains("#2 ") })
        let cancelled = try #require(lines.first { $0.contains("#3 ") })
        #expect(live.contains(" held"), "\(live)")
        #expect(!removed.contains(" held") && removed.contains(" removed"), "\(removed)")
        #expect(!cancelled.contains(" held") && cancelled.contains("cancelled"), "\(cancelled)")
        let row = try #require(data.model.registration(2))
        let detail = RegistrationDetailView.summary(row, data).map(\.0).joined(separator: "\n")
        #expect(detail.contains("token removed"), "\(detail)")
        #expect(!detail.contains("token held"), "\(detail)")
    }
}
