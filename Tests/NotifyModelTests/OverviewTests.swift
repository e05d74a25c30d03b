import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

@Suite struct OverviewTests {
    struct Expected: Sendable {
        var posts: UInt64 = 0
        var deliveries: UInt64 = 0
        var live: Int = 0
        var names: Int = 0
        /// Threads that posted, delivered, registered or removed; the script introduces two.
        var threads: Int = 1
        var lost: UInt64 = 0
        var gaps: UInt64 = 0
        var registrations: UInt64 = 0
        var removals: UInt64 = 0
    }

    static let figures: [(Scenario, Expected)] = [
        (Scenario("an empty stream: threads introduced but never used are not counted") { _ in }, Expected(threads: 0)),
        (
            Scenario("one registration, one post, one delivery") { s in
                s.register(1, "a")
                s.postAndDeliver("a", to: [1])
            }, Expected(posts: 1, deliveries: 1, live: 1, names: 1, registrations: 1)
        ),
        (
            Scenario("a removal lowers the live count but not the totals") { s in
                s.register(1, "a")
                s.register(2, "b")
                s.remove(1)
            }, Expected(live: 1, names: 2, registrations: 2, removals: 1)
        ),
        (
            Scenario("a wildcard registration is live but adds no name") { s in
                s.register(1, nil)
                s.postAndDeliver("x", to: [1])
            }, Expected(posts: 1, deliveries: 1, live: 1, names: 1, registrations: 1)
        ),
        (
            Scenario("gap lines add up the lost events") { s in
                s.gap(120)
                s.gap(5)
            }, Expected(threads: 0, lost: 125, gaps: 2)
        ),
        (
            Scenario("a delivery on a thread never introduced adds that thread") { s in
                s.register(1, "a")
                let post = s.post("a", matched: 1)
                s.deliver(post, to: 1, name: "a", thread: 9, postingThread: 1)
            }, Expected(posts: 1, deliveries: 1, live: 1, names: 1, threads: 2, registrations: 1)
        ),
        (
            Scenario("a repeated snapshot registration is counted once") { s in
                s.register(1, "a", preexisting: true)
                s.register(1, "a", preexisting: true)
            }, Expected(live: 1, names: 1, registrations: 1)
        ),
    ]

    @Test("overview counts", arguments: figures)
    func counts(scenario: Scenario, expected: Expected) {
        let overview = scenario.script.fold().overview
        #expect(overview.totals.posts == expected.posts)
        #expect(overview.totals.deliveries == expected.deliveries)
        #expect(overview.liveRegistrations == expected.live)
        #expect(overview.names == expected.names)
        #expect(overview.threads == expected.threads)
        #expect(overview.eventsLost == expected.lost)
        #expect(overview.gaps == expected.gaps)
        #expect(overview.totals.registrations == expected.registrations)
        #expect(overview.totals.removals == expected.removals)
    }

    @Test(
        "stream state follows the header, the end line and the caller",
        arguments: [
            ([TraceEvent](), nil as StreamState?, StreamState.waiting),
            (
                [.header(TraceHeader(pid: 1, process: "p", center: "c", clockMono: 0, clockWall: 0, producer: "t"))],
                nil,
                .live
            ),
            ([.end(TraceEnd(seq: 1, timestamp: 5, reason: .processExit))], nil, .ended("process-exit")),
            (
                [], .replaying(position: 2_500_000_000, duration: 60_000_000_000),
                .replaying(position: 2_500_000_000, duration: 60_000_000_000)
            ),
        ])
    func streamState(events: [TraceEvent], set: StreamState?, expected: StreamState) {
        var state = InspectorState()
        state.apply(events)
        if let set { state.setStream(set) }
        #expect(state.overview.stream == expected)
    }

    @Test(
        "stream state reads as text",
        arguments: [
            (StreamState.live, "live"),
            (.replaying(position: 12_500_000_000, duration: 60_000_000_000), "replay 12.5 s / 60.0 s"),
            (.ended("process-exit"), "ended (process-exit)"),
        ])
    func streamText(state: StreamState, text: String) {
        #expect(state.description == text)
    }

    @Test("open warnings are counted by severity, resolved ones are not")
    func warningsBySeverity() {
        var s = TraceScript()
        s.register(4, "d", site: 40)
        s.register(5, "d", site: 40)  // R5 info (no owner)
        s.register(1, "a", kind: .ownerBound, observer: 7, captures: true)  // R4 warning
        s.register(2, "b", kind: .block, object: 8)
        s.remove(2, reason: .objectDeallocated)  // R3 error
        s.register(3, "c")
        s.dropToken(3)  // R1 warning, resolved below
        s.remove(3, reason: .explicit)
        let overview = s.fold().overview
        #expect(overview.openFindings == [.info: 1, .warning: 1, .error: 1])
    }

    @Test(
        "rates are per second over complete buckets, with a history for sparklines",
        arguments: [
            (1, 20.0, [UInt64(10), 20]),
            (2, 15.0, [10, 20]),
        ])
    func rates(window: Int, perSecond: Double, history: [UInt64]) {
        var s = TraceScript()
        s.register(1, "a")
        for _ in 0..<10 { s.postAndDeliver("a", to: [1]); s.advance(50 * TraceScript.ms) }
        s.advance(TraceScript.second - 500 * TraceScript.ms)
        for _ in 0..<20 { s.postAndDeliver("a", to: [1]); s.advance(25 * TraceScript.ms) }
        var configuration = InspectorConfiguration()
        configuration.rateWindowBuckets = window
        var state = s.fold(configuration)
        #expect(state.overview.postsPerSecond == 10)  // only the first second is complete
        state.tick(now: TraceScript.start + 2 * TraceScript.second)
        #expect(state.overview.postHistory == history)
        #expect(state.overview.deliveryHistory == history)
        #expect(state.overview.postsPerSecond == perSecond)
        #expect(state.overview.deliveriesPerSecond == perSecond)
    }

    @Test("silence brings the rate to zero and the history stays capped")
    func rateDecaysAndCaps() {
        var s = TraceScript()
        s.post("a", matched: 0)
        var configuration = InspectorConfiguration()
        configuration.rateHistoryLength = 5
        var state = s.fold(configuration)
        state.tick(now: TraceScript.start + 3 * TraceScript.second)
        #expect(state.overview.postHistory == [1, 0, 0])
        #expect(state.overview.postsPerSecond == 0)
        state.tick(now: TraceScript.start + 100 * TraceScript.second)
        #expect(state.overview.postHistory == [0, 0, 0, 0, 0])
    }

    @Test("a tick older than the latest time changes nothing")
    func staleTick() {
        var s = TraceScript()
        s.advance(5 * TraceScript.second)
        s.post("a", matched: 0)
        var state = s.fold()
        let before = state.overview
        state.tick(now: TraceScript.start)
        #expect(state.overview == before)
    }

    @Test("lines of unknown kinds are counted as detail the model could not use")
    func unknownLines() {
        var state = InspectorState()
        state.apply(.unknown(TraceUnknownLine(kind: "future", line: #"{"k":"future"}"#)))
        #expect(state.detailLoss.unknownLines == 1)
        #expect(state.totals.events == 1)
    }
}
