import Testing

@testable import NotifyTUI

/// A table sorts and groups by dense ranks of its keys; each distinct key is hashed once and only
/// the distinct keys are sorted, so the ranks must equal those of sorting every key.
@Suite struct DenseRankTests {
    /// The reference: each key's position among the sorted distinct keys.
    private func naiveRanks(_ keys: [SortKey]) -> [Double] {
        var distinct: [SortKey] = []
        for key in keys where !distinct.contains(key) { distinct.append(key) }
        distinct.sort()
        return keys.map { key in Double(distinct.firstIndex(of: key)!) }
    }

    @Test func textKeysRankAsTheirSortedDistinctPositions() {
        let keys: [SortKey] = ["b", "a", "a", "B", "c", "a", "b", "Ab", "ab", "b"].map { .text($0) }
        #expect(TableWidget.denseRanks(keys) == naiveRanks(keys))
        #expect(Array(TableWidget.denseRanks(keys).prefix(3)) == [4, 0, 0])
    }

    @Test func mixedKeysPutNumbersFirst() {
        let keys: [SortKey] = [.text("x"), .number(3), .text("x"), .number(-1), .number(3), .text("a")]
        #expect(TableWidget.denseRanks(keys) == [3, 1, 3, 0, 1, 2])
    }

    @Test func allNumbersAreTheirOwnRanks() {
        let keys: [SortKey] = [.number(5), .number(2.5), .number(5)]
        #expect(TableWidget.denseRanks(keys) == [5, 2.5, 5])
    }

    @Test func manyNamesInRowOrderRankLikeASort() {
        let keys: [SortKey] = (0..<2_000).map { .text("bench.name.\(($0 * 7) % 500)") }
        #expect(TableWidget.denseRanks(keys) == naiveRanks(keys))
        #expect(TableWidget.denseRanks([]) == [])
    }
}
