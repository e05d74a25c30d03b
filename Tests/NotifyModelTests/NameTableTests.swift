import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

@Suite struct NameTableTests {
    struct Row: Sendable, Equatable {
        var live: Int
        var posts: UInt64
        var deliveries: UInt64
        var unheard: UInt64
        var posting: [UInt64]
        var handling: [UInt64]
    }

    static let rows: [(Scenario, String, Row)] = [
        (
            Scenario("a name never seen has no row") { _ in }, "a",
            Row(live: -1, posts: 0, deliveries: 0, unheard: 0, posting: [], handling: [])
        ),
        (
            Scenario("observers, posts and deliveries of one name") { s in
                s.register(1, "a")
                s.register(2, "a")
                s.postAndDeliver("a", to: [1, 2])
                s.postAndDeliver("a", to: [1, 2])
            }, "a", Row(live: 2, posts: 2, deliveries: 4, unheard: 0, posting: [1], handling: [1])
        ),
        (
            Scenario("a post nobody hears counts as a post with no observer") { s in
                s.post("b", matched: 0)
                s.post("b", matched: 0, thread: 2)
            }, "b", Row(live: 0, posts: 2, deliveries: 0, unheard: 2, posting: [1, 2], handling: [])
        ),
        (
            Scenario("a handed-off delivery counts the handling thread") { s in
                s.register(1, "c", target: .dispatchQueue)
                let post = s.post("c", matched: 1, thread: 1)
                s.deliver(post, to: 1, name: "c", thread: 2, postingThread: 1, wait: 5_000, target: .dispatchQueue)
            }, "c", Row(live: 1, posts: 1, deliveries: 1, unheard: 0, posting: [1], handling: [2])
        ),
        (
            Scenario("a wildcard's run counts under the posted name") { s in
                s.register(1, nil)
                s.postAndDeliver("d", to: [1])
            }, "d", Row(live: 0, posts: 1, deliveries: 1, unheard: 0, posting: [1], handling: [1])
        ),
        (
            Scenario("the * row counts every post and the wildcard observers' runs") { s in
                s.register(1, nil)
                s.register(2, "e")
                s.postAndDeliver("e", to: [1, 2])
                s.post("f", matched: 0)
            }, "*", Row(live: 1, posts: 2, deliveries: 1, unheard: 0, posting: [], handling: [1])
        ),
        (
            Scenario("removed observers leave the live count") { s in
                s.register(1, "g")
                s.register(2, "g")
                s.remove(1)
            }, "g", Row(live: 1, posts: 0, deliveries: 0, unheard: 0, posting: [], handling: [])
        ),
    ]

    @Test("per-name figures", arguments: rows)
    func figures(scenario: Scenario, name: String, expected: Row) {
        let state = scenario.script.fold()
        guard let row = state.name(name) else {
            #expect(expected.live == -1, "no row for \(name)")
            return
        }
        let actual = Row(
            live: row.liveObservers, posts: row.posts, deliveries: row.deliveries, unheard: row.postsWithNoObserver,
            posting: row.postingThreads.ids, handling: row.handlingThreads.ids)
        #expect(actual == expected)
    }

    @Test(
        "handler time: average, p99 and maximum",
        arguments: [
            ([UInt64](repeating: 1_000, count: 100), UInt64(1_000), UInt64(1_000), UInt64(1_000)),
            (Array(repeating: 1_000, count: 99) + [1_000_000], 10_990, 1_000, 1_000_000),
            (Array(repeating: 1_000, count: 98) + [500_000, 1_000_000], 15_980, 500_000, 1_000_000),
        ])
    func handlerTime(durations: [UInt64], average: UInt64, p99Lower: UInt64, maximum: UInt64) {
        var s = TraceScript()
        s.register(1, "a")
        for duration in durations { s.postAndDeliver("a", to: [1], duration: duration) }
        let row = s.fold().name("a")!
        #expect(row.averageHandlerTime == average)
        #expect(row.maximumHandlerTime == maximum)
        // The histogram rounds up to a bucket bound within 12.5 %, never past the maximum.
        #expect(row.p99HandlerTime >= p99Lower && row.p99HandlerTime <= p99Lower + p99Lower / 8)
    }

    @Test("last post is the time and thread of the latest post")
    func lastPost() {
        var s = TraceScript()
        s.post("a", matched: 0, thread: 1)
        s.advance(TraceScript.second)
        s.post("a", matched: 0, thread: 2)
        let row = s.fold().name("a")!
        #expect(row.lastPostAt == TraceScript.start + TraceScript.second)
        #expect(row.lastPostThread == 2)
    }

    @Test("the table lists * first, then names alphabetically, and per-name counts add up to the totals")
    func orderingAndSums() {
        var s = TraceScript()
        s.register(1, "b")
        s.register(2, "a")
        s.register(3, nil)
        s.postAndDeliver("b", to: [1, 3])
        s.postAndDeliver("a", to: [2, 3])
        s.post("c", matched: 0)
        let state = s.fold()
        #expect(state.names.map(\.name) == ["*", "a", "b", "c"])
        let named = state.names.filter { !$0.isWildcard }
        #expect(named.reduce(0) { $0 + $1.posts } == state.totals.posts)
        #expect(named.reduce(0) { $0 + $1.deliveries } == state.totals.deliveries)
        #expect(named.reduce(0) { $0 + $1.liveObservers } + state.name("*")!.liveObservers == state.liveRegistrations)
    }

    @Test("a name's observers: live and recently removed, by id")
    func observersOfName() {
        var s = TraceScript()
        s.register(2, "a")
        s.register(1, "a")
        s.register(3, "b")
        s.register(4, nil)
        s.remove(2)
        let state = s.fold()
        #expect(state.observers(of: "a").map(\.id) == [1, 2])
        #expect(state.observers(of: "a").map(\.isLive) == [true, false])
        #expect(state.observers(of: "*").map(\.id) == [4])
    }
}

@Suite struct LatencyHistogramTests {
    @Test(
        "percentiles are bucket upper bounds within 12.5 %, clamped to the range seen",
        arguments: [
            (UInt64(0), 0.99, UInt64(0)),
            (7, 0.5, 7),
            (1_000, 0.99, 1_000),
            (1_234_567, 0.5, 1_234_567),
            (UInt64(1) << 50, 0.99, UInt64(1) << 50),
        ])
    func singleValue(value: UInt64, p: Double, expected: UInt64) {
        var histogram = LatencyHistogram()
        histogram.record(value)
        #expect(histogram.percentile(p) == expected)
    }

    @Test("every value falls in a bucket whose bound is within 12.5 % above it")
    func bucketBounds() {
        var value: UInt64 = 1
        while value < UInt64(1) << 44 {
            var histogram = LatencyHistogram()
            histogram.record(value)
            histogram.record(value * 4)
            let bound = histogram.percentile(0.5)
            #expect(bound >= value && bound <= value + value / 8, "value \(value) → \(bound)")
            value = value * 3 / 2 + 1
        }
    }

    @Test("an empty histogram reports zeros")
    func empty() {
        let histogram = LatencyHistogram()
        #expect(histogram.count == 0 && histogram.mean == 0 && histogram.p99 == 0 && histogram.max == 0)
    }
}
