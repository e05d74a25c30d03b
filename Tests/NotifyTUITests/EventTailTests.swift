import NotifyWire
import NotifyTUI
import Testing

@Suite("Event tail")
struct EventTailTests {
    private static func gaps(_ range: ClosedRange<UInt64>) -> [TraceEvent] {
        range.map { .gap(TraceGap(seq: $0, timestamp: $0, count: 1, reason: .bufferFull)) }
    }

    @Test(
        "a batch keeps the same newest events and drop count as appending one by one",
        arguments: [(3, 2), (3, 3), (3, 10), (5, 12), (4, 4)])
    func batchEqualsOneByOne(capacity: Int, batch: Int) {
        var single = EventTail(capacity: capacity)
        var batched = EventTail(capacity: capacity)
        let first = Self.gaps(1...2)
        let second = Self.gaps(3...UInt64(2 + batch)) + [.type(TraceType(id: 1, name: "T"))]
        for event in first + second { single.append(event) }
        batched.append(contentsOf: first)
        batched.append(contentsOf: second)
        #expect(batched.events.compactMap(\.seq) == single.events.compactMap(\.seq))
        #expect(batched.dropped == single.dropped)
    }
}
