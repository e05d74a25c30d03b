import NotifyTUI
import Testing

private struct Row: Sendable {
    var name: String
    var count: Int
}

private let spec = TableSpec<Row>(
    columns: [
        TableColumn("NAME", .flexible(min: 6), text: { $0.name }, sortKey: { .text($0.name) }),
        TableColumn(
            "COUNT", .fixed(6), alignRight: true, text: { "\($0.count)" }, sortKey: { .number(Double($0.count)) }),
    ],
    key: { .name($0.name) }, defaultSort: 1)

private let rows = [Row(name: "alpha", count: 3), Row(name: "通知", count: 10), Row(name: "beta", count: 7)]

struct WidgetTests {
    @Test("a table sorts by its default column, biggest first, and highlights the selection")
    func table() {
        var canvas = Canvas(size: Size(width: 16, height: 4))
        let info = TableWidget.render(
            rows, spec: spec, state: TableState(), into: &canvas, rect: canvas.bounds,
            glyphs: .unicode)
        #expect(
            canvas.lines == [
                "NAME      ▼COUNT",
                "通知          10",
                "beta           7",
                "alpha          3",
            ])
        #expect(canvas.styleLines[1] == String(repeating: "S", count: 16))
        #expect(info.rowKeys == [.name("通知"), .name("beta"), .name("alpha")])
        #expect(info.sortableColumns == [0, 1])
    }

    @Test("inverting, filtering and selection by key")
    func invertAndFilter() {
        var state = TableState()
        state.inverted = true
        state.selectedKey = .name("beta")
        var canvas = Canvas(size: Size(width: 16, height: 4))
        let info = TableWidget.render(
            rows, spec: spec, state: state, into: &canvas, rect: canvas.bounds, glyphs: .ascii)
        #expect(info.rowKeys == [.name("alpha"), .name("beta"), .name("通知")])
        #expect(info.selectedIndex == 1)
        #expect(canvas.lines[0] == "NAME      ^COUNT")
        state.filter = "ET"
        let filtered = TableWidget.order(rows, spec: spec, state: state)
        #expect(filtered.map(\.name) == ["beta"])
    }

    @Test("grouped sorts order as comparing the keys pairwise would, ties keeping their order", arguments: [0, 1])
    func groupedSortMatchesPairwiseOrder(column: Int) {
        var generator = SystemRandomNumberGenerator()
        let names = ["b.cart", "A.cart", "a.cart", "user", "User", "ü-name", "名前", "b"]
        let rows = (0..<2_000).map { _ in
            Row(name: names.randomElement(using: &generator)!, count: Int.random(in: 0..<50, using: &generator))
        }
        let grouped = TableSpec<Row>(
            columns: spec.columns, key: { .name($0.name) },
            groupBy: { .text(String($0.name.prefix(1)).lowercased()) })
        for inverted in [false, true] {
            var state = TableState(sortColumn: column)
            state.inverted = inverted
            let descending = grouped.columns[column].descendingFirst != inverted
            let expected = rows.indices.sorted { lhs, rhs in
                let (groupL, groupR) = (grouped.groupBy!(rows[lhs]), grouped.groupBy!(rows[rhs]))
                if groupL != groupR { return groupL < groupR }
                let (keyL, keyR) = (
                    grouped.columns[column].sortKey!(rows[lhs]), grouped.columns[column].sortKey!(rows[rhs])
                )
                if keyL == keyR { return lhs < rhs }
                return descending ? keyR < keyL : keyL < keyR
            }
            #expect(TableWidget.orderIndices(rows, spec: grouped, state: state) == expected)
        }
    }

    @Test("an empty table says so", arguments: ["", "zzz"])
    func empty(filter: String) {
        var state = TableState()
        state.filter = filter
        var canvas = Canvas(size: Size(width: 40, height: 4))
        _ = TableWidget.render([Row](), spec: spec, state: state, into: &canvas, rect: canvas.bounds, glyphs: .unicode)
        #expect(canvas.lines[2].contains(filter.isEmpty ? "nothing yet" : "no rows match"))
    }

    @Test("column widths: fixed first, flexible share the rest, what does not fit is dropped")
    func widths() {
        #expect(TableWidget.columnWidths([.flexible(min: 4), .fixed(5)], total: 20) == [14, 5])
        #expect(TableWidget.columnWidths([.fixed(5), .fixed(10), .fixed(10)], total: 12) == [5, 6, 0])
        #expect(TableWidget.columnWidths([.fixed(5), .fixed(10), .fixed(10)], total: 8) == [5, 0, 0])
    }

    @Test("sparklines scale to the peak, keep trickles visible, and have an ASCII form")
    func sparkline() {
        #expect(Sparkline.text([0, 1, 50, 100], width: 4, glyphs: .unicode) == "▁▂▅█")
        #expect(Sparkline.text([0, 1, 50, 100], width: 6, glyphs: .ascii) == "___.+@")
        #expect(Sparkline.text([], width: 3, glyphs: .unicode) == "▁▁▁")
    }

    @Test("the footer is generated from the keymap and drops aliases when narrow")
    func footer() {
        var wide = Canvas(size: Size(width: 120, height: 1))
        FooterBar.draw(keymap: .standard, isReplay: false, y: 0, into: &wide)
        #expect(
            wide.lines[0].hasPrefix("F1Help(?) EnterOpen F3Search F4Filter(/) F5Group(t) F6Sort(s) F8Rec(r) F9Pause(p)")
        )
        var narrow = Canvas(size: Size(width: 60, height: 1))
        FooterBar.draw(keymap: .standard, isReplay: true, y: 0, into: &narrow)
        #expect(narrow.lines[0].hasPrefix("F1Help EnterOpen F3Search F4Filter F5Group F6Sort .Step"))
    }

    @Test("the help overlay lists every binding of the keymap")
    func help() {
        var canvas = Canvas(size: Size(width: 100, height: 70))
        HelpOverlay.draw(keymap: .standard, isReplay: true, glyphs: .unicode, into: &canvas)
        let text = canvas.lines.joined(separator: "\n")
        for binding in Keymap.standard.bindings where binding.context != .live {
            #expect(text.contains(binding.help), "\(binding.help)")
        }
        #expect(text.contains("┌─ Keys (↑↓ PgUp PgDn scroll, any other key closes) "))
    }
}
