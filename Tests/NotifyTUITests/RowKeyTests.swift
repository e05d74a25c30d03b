import NotifyTUI
import NotifyTUITestSupport
import Testing

/// Rows carry typed keys: the selection follows them and Enter opens what they name.
struct RowKeyTests {
    @Test(
        "a row key drills where its row opens; marks, groups, actions and plain lines open nothing",
        arguments: [
            (RowKey.name("cartDidChange"), DrillLevel?.some(.name("cartDidChange"))),
            (.registration(4), .registration(4)),
            (.delivery(registration: 4, post: 9), .registration(4)),
            (.event(seq: 12, registration: 4), .registration(4)),
            (.event(seq: 12, registration: nil), nil),
            (.warning("R1 name:a#b~1"), .warning("R1 name:a#b~1")),
            (.thread(2), .thread(2)),
            (.continuation(.event(seq: 12, registration: 4), part: 2), .registration(4)),
            (.continuation(.action(3), part: 1), nil),
            (.action(3), nil), (.line(0), nil), (.mark(1), nil), (.group("reg:4"), nil),
        ])
    func drillTargets(key: RowKey, target: DrillLevel?) {
        #expect(key.drillTarget == target)
    }

    @Test(
        "each drill level's row key drills back to it, whatever characters a name or warning holds",
        arguments: [DrillLevel.name("a:b#c~1"), .registration(7), .warning("R3 name:x#1"), .thread(0)])
    func drillLevelRoundTrip(level: DrillLevel) {
        #expect(level.rowKey.drillTarget == level)
    }

    @Test("Enter on an Events row about a registration opens that registration")
    func eventRowOpensItsRegistration() throws {
        var view = ViewState(view: .events)
        var (_, info) = press([.home], &view)
        let row = try #require(info.rowKeys.firstIndex { $0.drillTarget != nil })
        guard case .event(_, let registration?) = info.rowKeys[row] else {
            Issue.record("\(info.rowKeys[row]) is not an event about a registration")
            return
        }
        for _ in 0..<row { (_, info) = press([.down], &view) }
        #expect(view.table.selectedKey == info.rowKeys[row])
        press([.enter], &view)
        #expect(view.path == [.registration(registration)])
    }
}
