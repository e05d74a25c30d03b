import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// How many viewers a producer streams to: a fact about the stream, folded from its clock lines.
@Suite struct ViewerCountTests {
    @Test("the model keeps the latest viewer count a clock line said; lines that do not say keep it")
    func latestCount() {
        var script = TraceScript()
        #expect(script.fold().viewers == nil, "no clock line said: unknown, not zero")
        script.tick(viewers: 1)
        #expect(script.fold().viewers == 1)
        script.advance(TraceScript.second)
        script.tick(viewers: 3)
        script.advance(TraceScript.second)
        script.tick()
        let model = script.fold()
        #expect(model.viewers == 3)
        #expect(model.overview.viewers == 3)
        #expect(model.totals.events == script.fold().totals.events, "a clock line is no event")
    }

    @Test("folding the same lines twice gives the same count (a replay shows what the live view showed)")
    func deterministic() {
        var script = TraceScript()
        for count in [1, 2, 1, 4] as [UInt64] {
            script.tick(viewers: count)
            script.advance(TraceScript.second)
        }
        #expect(script.fold().viewers == 4)
        #expect(script.fold().overview == script.fold().overview)
    }

    @Test("combined figures add up rates, counts, warnings, losses and viewers over the streams")
    func combined() {
        var first = TraceScript()
        first.register(1, "a")
        first.postAndDeliver("a", to: [1])
        first.gap(5)
        first.tick(viewers: 2)
        var second = TraceScript()
        second.register(1, "b")
        second.register(2, "c")
        second.postAndDeliver("b", to: [1])
        second.postAndDeliver("c", to: [2])
        let parts = [first.fold().overview, second.fold().overview]
        let total = InspectorOverview.combined(parts)
        #expect(total.totals.posts == 3)
        #expect(total.totals.deliveries == 3)
        #expect(total.liveRegistrations == 3)
        #expect(total.names == parts[0].names + parts[1].names)
        #expect(total.eventsLost == 5)
        #expect(total.viewers == 2, "only the streams that said count")
        #expect(total.postsPerSecond == parts[0].postsPerSecond + parts[1].postsPerSecond)
        #expect(total.postHistory.count == max(parts[0].postHistory.count, parts[1].postHistory.count))
        let posted: UInt64 = parts[0].postHistory.reduce(0, +) + parts[1].postHistory.reduce(0, +)
        #expect(total.postHistory.reduce(0, +) == posted)
        #expect(InspectorOverview.combined([]).viewers == nil)
        #expect(InspectorOverview.combined([]).liveRegistrations == 0)
    }
}
