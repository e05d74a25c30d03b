import NotifyTUI
import Testing

private struct Item: Sendable {
    var name: String
    var count: Int
}

/// A view may hand the table every row's group and sort keys at once; the order must be the one
/// the per-row keys give, filtered or not.
struct BatchSortKeyTests {
    private static func spec(batched: Bool) -> TableSpec<Item> {
        var count = TableColumn<Item>(
            "COUNT", .fixed(6), alignRight: true, text: { "\($0.count)" }, sortKey: { .number(Double($0.count)) })
        if batched { count.sortKeys = { items in items.map { .number(Double($0.count)) } } }
        var spec = TableSpec<Item>(
            columns: [TableColumn("NAME", .flexible(min: 6), text: { $0.name }, sortKey: { .text($0.name) }), count],
            key: { .name($0.name) }, defaultSort: 1,
            groupBy: { .text(String($0.name.prefix(1))) })
        if batched { spec.groupKeys = { items in items.map { .text(String($0.name.prefix(1))) } } }
        return spec
    }

    @Test("batched keys order rows as per-row keys do", arguments: ["", "a", "!b"])
    func batchedEqualsPerRow(filter: String) {
        let names = ["alpha", "beta", "apex", "bravo", "ab", "b2", "c"]
        let items = (0..<300).map { Item(name: names[$0 % names.count] + "\($0 % 11)", count: ($0 * 37) % 23) }
        for inverted in [false, true] {
            var state = TableState()
            state.filter = filter
            state.inverted = inverted
            let batched = TableWidget.orderIndices(items, spec: Self.spec(batched: true), state: state)
            let perRow = TableWidget.orderIndices(items, spec: Self.spec(batched: false), state: state)
            #expect(batched == perRow)
            #expect(!batched.isEmpty)
        }
    }

    @Test("a batch of keys that is not the sorted column's is not used")
    func otherColumnsKeepTheirKeys() {
        let items = [Item(name: "b", count: 1), Item(name: "a", count: 2)]
        var state = TableState(sortColumn: 0)
        state.inverted = false
        let order = TableWidget.orderIndices(items, spec: Self.spec(batched: true), state: state)
        #expect(order == TableWidget.orderIndices(items, spec: Self.spec(batched: false), state: state))
    }
}
