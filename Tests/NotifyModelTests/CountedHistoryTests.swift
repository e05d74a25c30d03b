import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// History lines marked `recent` (a producer that counts instead of sending events, as
/// `--foundation`'s counting mode does): work done now, so it counts in the rates as events would,
/// and deliveries named with their registration count on its row.
@Suite struct CountedHistoryTests {
    @Test func recentHistoryCountsInRatesAndOnItsRegistration() {
        var script = TraceScript()
        script.register(1, "cart")
        var model = InspectorState()
        model.apply(script.events)
        let start = TraceScript.start
        for second in 1...3 {
            model.apply(
                .history(
                    TraceHistory(
                        timestamp: start + UInt64(second) * TraceScript.second, thread: 1, name: "cart", posts: 100,
                        deliveries: 100, registration: 1, recent: true)))
        }
        model.apply(.tick(TraceTick(seq: 99, timestamp: start + 4 * TraceScript.second)))
        #expect(model.totals.posts == 300 && model.totals.deliveries == 300)
        #expect(model.name("cart")?.posts == 300)
        #expect(model.observers(of: "cart").map(\.deliveries) == [300])
        #expect(model.postRate.perSecond > 0 && model.deliveryRate.perSecond > 0)
        #expect(!model.beganLate)
    }

    @Test func historyBeforeAttachStaysOutOfTheRates() {
        var model = InspectorState()
        model.apply(TraceScript().events)
        model.apply(
            .history(TraceHistory(timestamp: TraceScript.start, thread: 1, name: "cart", posts: 100, deliveries: 100)))
        model.apply(.tick(TraceTick(seq: 99, timestamp: TraceScript.start + 5 * TraceScript.second)))
        #expect(model.totals.posts == 100)
        #expect(model.postRate.perSecond == 0)
        #expect(model.beganLate)
    }
}
