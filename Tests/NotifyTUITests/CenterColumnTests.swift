import NotifyModel
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

@testable import NotifyTUI

/// A stream of several centers on the screen: the process line names them, the Observers table
/// gets a CENTER column that sorts and filters like the others, and Events says each post's and
/// registration's center. A stream of one center looks as it always did.
struct CenterColumnTests {
    private let size = Size(width: 160, height: 30)

    /// Registrations 1 (`default`), 2 (`sync`) and 3 (a center the header does not name).
    private func data(severalCenters: Bool) -> DashboardData {
        var script =
            severalCenters
            ? TraceScript(centers: ["default", "sync"])
            : TraceScript(
                header: TraceHeader(
                    pid: 7, process: "App", center: "default", clockMono: 0, clockWall: 0, producer: "test"),
                time: TraceScript.start)
        script.register(1, "cartDidChange", site: 101, center: severalCenters ? 0 : nil)
        script.register(2, "cartDidChange", site: 102, center: severalCenters ? 1 : nil)
        script.register(3, "cartDidChange", site: 103, center: severalCenters ? 9 : nil)
        script.post("cartDidChange", matched: 1, center: severalCenters ? 1 : nil)
        return Fixture.data(script.events)
    }

    private func observers(_ data: DashboardData, _ table: TableState = TableState(), width: Int? = nil) -> [String] {
        var view = ViewState(view: .observers)
        view.table = table
        let size = width.map { Size(width: $0, height: self.size.height) } ?? size
        return Dashboard.render(data, view: view, size: size, glyphs: .unicode).0.lines
    }

    @Test("CENTER appears only with several centers, each row naming its center")
    func columnOnlyWithSeveral() throws {
        let several = observers(data(severalCenters: true))
        #expect(several[0].contains("centers: default, sync"), "\(several[0])")
        let heading = try #require(several.first { $0.contains("OBSERVER") })
        #expect(heading.contains("CENTER"), "\(heading)")
        let row1 = try #require(several.first { $0.contains("#1 ") })
        let row2 = try #require(several.first { $0.contains("#2 ") })
        let row3 = try #require(several.first { $0.contains("#3 ") })
        #expect(row1.hasSuffix("default") || row1.contains("default "), "\(row1)")
        #expect(row2.contains("sync"), "\(row2)")
        #expect(row3.contains("center 9"), "\(row3)")

        let one = observers(data(severalCenters: false))
        #expect(!one[0].contains("centers"), "\(one[0])")
        #expect(!one.contains { $0.contains("CENTER") })
        #expect(one.contains { $0.contains("#3 ") })
    }

    @Test("CENTER gives way like the other identifiers: at 120 cells NAME keeps its minimum, a label loses its start")
    func centerGivesWay() throws {
        var script = TraceScript(centers: ["notify-demo", "notify-demo.sync"])
        script.register(1, "cartDidChange", site: 101, center: 0)
        script.register(2, "cartDidChange", site: 102, center: 1)
        let data = Fixture.data(script.events)
        let spec = ObserversView.spec(data, grouping: .name, ascii: false, rows: data.model.registrations)
        func widths(_ total: Int) -> [Int] {
            TableWidget.columnWidths(
                spec.columns.map(\.width), total: total, ideals: spec.columns.map(\.ideal),
                floors: spec.columns.map(\.floor))
        }
        let name = 0
        let center = try #require(spec.columns.firstIndex { $0.title == "CENTER" })
        let narrow = widths(120)
        #expect(narrow[name] >= 14, "NAME squeezed below its minimum: \(narrow)")
        #expect(narrow[center] >= ObserversView.centerFloor && narrow[center] < 16, "\(narrow)")
        #expect(widths(160)[center] == 16)

        // Each label keeps its end: the two stay told apart.
        let lines = observers(data, width: 120)
        for (row, label) in [("#1 ", "notify-demo"), ("#2 ", "notify-demo.sync")] {
            let line = try #require(lines.first { $0.contains(row) })
            let cell = try #require(line.split(separator: " ").last)
            #expect(cell.hasPrefix("…") && label.hasSuffix(cell.dropFirst()), "\(line)")
        }
        #expect(observers(data, width: 160).first { $0.contains("#2 ") }?.hasSuffix("notify-demo.sync") == true)
    }

    @Test("CENTER sorts and filters like the other columns")
    func sortAndFilter() throws {
        let data = data(severalCenters: true)
        let spec = ObserversView.spec(data, grouping: .name, ascii: false)
        let center = try #require(spec.columns.firstIndex { $0.title == "CENTER" })
        #expect(center == spec.columns.count - 1, "last, so the other columns keep their positions")
        #expect(
            ObserversView.spec(self.data(severalCenters: false), grouping: .name, ascii: false).columns.count == center)

        var view = ViewState(view: .observers)
        view.table = TableState(sortColumn: center)
        guard case .observers(let sorted) = ViewRows.ordered(data, view: view) else {
            Issue.record("not the observers' rows")
            return
        }
        #expect(sorted.map(\.id) == [3, 1, 2])
        view.table.filter = "center=sync"
        guard case .observers(let filtered) = ViewRows.ordered(data, view: view) else {
            Issue.record("not the observers' rows")
            return
        }
        #expect(filtered.map(\.id) == [2])
    }

    @Test("a sort asked for by CENTER's title sorts by it once the stream shows the column")
    func requestedSortWaitsForTheColumn() throws {
        let table = try #require(ViewRows.sorting(.observers, byColumn: "Center", descending: true))
        #expect(table.sortColumn == nil)
        #expect(table.requestedSort == RequestedSort(title: "center", descending: true))
        #expect(ViewRows.sorting(.observers, byColumn: "centre") == nil)
        var view = ViewState(view: .observers)
        view.table = table
        // One center: no CENTER column, so the default sort.
        guard case .observers(let unsorted) = ViewRows.ordered(data(severalCenters: false), view: view) else {
            Issue.record("not the observers' rows")
            return
        }
        #expect(unsorted.map(\.id) == [1, 2, 3])
        let several = data(severalCenters: true)
        guard case .observers(let sorted) = ViewRows.ordered(several, view: view) else {
            Issue.record("not the observers' rows")
            return
        }
        // `sync`, `default`, `center 9`: biggest first, as asked.
        #expect(sorted.map(\.id) == [2, 1, 3])
        let info = Dashboard.render(several, view: view, size: size, glyphs: .unicode).info
        let center = try #require(
            ObserversView.spec(several, grouping: .name, ascii: false).columns.firstIndex {
                $0.title == "CENTER"
            })
        #expect(info.sortColumn == center)
        #expect(info.rowKeys == [.registration(2), .registration(1), .registration(3)])
        // `I` turns the requested direction over.
        view.table.inverted = true
        guard case .observers(let inverted) = ViewRows.ordered(several, view: view) else {
            Issue.record("not the observers' rows")
            return
        }
        #expect(inverted.map(\.id) == [3, 1, 2])
    }

    @Test("a registration's summary names its center only when there are several")
    func registrationSummary() throws {
        for (several, expected) in [(true, #" on center "sync""#), (false, "")] {
            let data = data(severalCenters: several)
            let row = try #require(data.model.registration(2))
            let first = RegistrationDetailView.summary(row, data)[0].0
            #expect(first == #"#2 block in File.swift observes "cartDidChange" (block)"# + expected, "\(first)")
        }
    }

    @Test("Events names the center of each post and registration only when there are several")
    func eventsSayTheCenter() {
        func details(_ data: DashboardData) -> [String] {
            data.tail.events.map { EventsView.row($0, data).detail }
        }
        let several = details(data(severalCenters: true))
        #expect(several.contains { $0.hasPrefix("#2 ") && $0.hasSuffix(" center sync") })
        #expect(several.contains { $0.hasPrefix("#3 ") && $0.hasSuffix(" center center 9") })
        #expect(several.contains { $0.contains("post 1 matched 1") && $0.hasSuffix(" center sync") })
        #expect(!details(data(severalCenters: false)).contains { $0.contains("center") })
    }
}
