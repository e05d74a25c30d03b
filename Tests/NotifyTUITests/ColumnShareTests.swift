import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import Testing

@testable import NotifyTUI

/// Identifying columns (callsite, observer) get their value before free text shares the rest, and
/// what still does not fit is shortened so the part that identifies survives.
struct ColumnShareTests {
    @Test("a flexible column with an ideal grows to it first; free text takes what is left")
    func idealsFirst() {
        #expect(
            TableWidget.columnWidths([.flexible(min: 4), .flexible(min: 4)], total: 50, ideals: [nil, 20]) == [29, 20])
        #expect(TableWidget.columnWidths([.flexible(min: 4), .flexible(min: 4)], total: 50) == [25, 24])
        // Too narrow for the ideal: the identifier takes every spare cell, free text keeps its minimum.
        #expect(
            TableWidget.columnWidths([.flexible(min: 4), .flexible(min: 4)], total: 15, ideals: [nil, 20]) == [4, 10])
    }

    @Test("a path loses leading directories, then characters from the left, never its line")
    func path() {
        let site = "NotifyDemo/DocumentEditor.swift:142"
        #expect(CellShortening.path.apply(site, width: 26, ellipsis: "…") == "…/DocumentEditor.swift:142")
        #expect(CellShortening.path.apply(site, width: 12, ellipsis: "…") == "…r.swift:142")
        #expect(CellShortening.path.apply(site, width: 40, ellipsis: "…") == site)
        #expect(CellShortening.end.apply(site, width: 12, ellipsis: "…") == "NotifyDemo/…")
    }

    @Test("an object keeps its type and its address's last digits, so two instances stay apart")
    func object() {
        let one = CellShortening.object.apply("CartCell@0x55bcd67a1230", width: 18, ellipsis: "…")
        let two = CellShortening.object.apply("CartCell@0x55bcd67a9f40", width: 18, ellipsis: "…")
        #expect(one == "CartCell@…d67a1230")
        #expect(one != two)
        #expect(
            CellShortening.object.apply("DocumentEditorController@0x55bcd67a1230", width: 20, ellipsis: "~")
                == "DocumentEdi~@~7a1230")
    }

    @Test("Observers at 200 columns shows whole callsites, blocks by file, and how long ago a removal was")
    func observersWide() {
        let (canvas, _) = Dashboard.render(
            Fixture.data(), view: ViewState(view: .observers), size: Size(width: 200, height: 30), glyphs: .unicode)
        let text = canvas.lines.joined(separator: "\n")
        #expect(text.contains("Demo/CartScreen.swift:42"))
        #expect(text.contains("block in Checkout.swift"))
        #expect(text.contains("removed 1s ago"))
    }

    @Test("a narrow SITE column keeps file and line: …/CartScreen.swift:42")
    func observersNarrow() {
        var view = ViewState(view: .observers)
        view.grouping = .observer
        let (canvas, _) = Dashboard.render(
            Fixture.data(), view: view, size: Size(width: 130, height: 30), glyphs: .unicode)
        let text = canvas.lines.joined(separator: "\n")
        #expect(text.contains("CartScreen.swift:42") || text.contains("…/CartScreen.swift:42"))
        #expect(text.contains("CartScreen@"))
    }
}
