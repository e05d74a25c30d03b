import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

@Suite struct ObserverTableTests {
    @Test("a registration row carries what the trace said about it")
    func rowFields() throws {
        var s = TraceScript()
        s.register(
            5, "a", kind: .ownerBound, observer: 7, object: 8, target: .thread, site: 42, thread: 2,
            captures: true, mainOnly: true)
        let state = s.fold()
        let row = try #require(state.registration(5))
        #expect(row.name == "a" && row.displayName == "a")
        #expect(row.kind == .ownerBound)
        #expect(row.observer?.id == 7 && row.observer?.typeName == "App.Screen")
        #expect(row.objectFilter?.typeName == "App.Sender")
        #expect(row.target == .thread)
        #expect(row.callsite.description == "App/File.swift:42")
        #expect(row.registeringThread == 2)
        #expect(row.capturesObserverStrongly && row.mainThreadOnly)
        #expect(row.isLive && row.token == .held)
    }

    @Test(
        "token state",
        arguments: [
            (Scenario("a block holds its token") { s in s.register(1, "a") }, "held"),
            (
                Scenario("a target–action registration has no token") { s in
                    s.register(1, "a", kind: .target, observer: 7)
                }, "-"
            ),
            (
                Scenario("a dropped token") { s in
                    s.register(1, "a")
                    s.dropToken(1)
                }, "dropped"
            ),
            (
                Scenario("a cancelled token") { s in
                    s.register(1, "a")
                    s.remove(1, reason: .tokenCancelled)
                }, "cancelled"
            ),
            (
                Scenario("an explicit removal leaves the token held") { s in
                    s.register(1, "a")
                    s.remove(1, reason: .explicit)
                }, "held"
            ),
        ])
    func tokenState(scenario: Scenario, expected: String) {
        #expect(scenario.script.fold().registration(1)?.token.description == expected)
    }

    @Test("deliveries, last delivering thread and age")
    func activity() {
        var s = TraceScript()
        s.register(1, "a")
        s.advance(2 * TraceScript.second)
        let post = s.post("a", matched: 1)
        s.deliver(post, to: 1, name: "a", thread: 1)
        let second = s.post("a", matched: 1)
        s.deliver(second, to: 1, name: "a", thread: 2, target: .dispatchQueue)
        let state = s.fold()
        let row = state.registration(1)!
        #expect(row.deliveries == 2)
        #expect(row.lastDeliveringThread == 2)
        #expect(row.lastDeliveryAt == state.now)
        #expect(row.age(at: state.now) >= 2 * TraceScript.second)
    }

    @Test(
        "a removed registration stays with its reason until it retires",
        arguments: [
            (UInt64(59), true),
            (61, false),
        ])
    func retirement(secondsLater: UInt64, stillShown: Bool) {
        var s = TraceScript()
        s.register(1, "a")
        s.remove(1, reason: .observerDeallocated)
        var state = s.fold()
        #expect(state.registration(1)?.removal?.reason == .observerDeallocated)
        state.tick(now: TraceScript.start + secondsLater * TraceScript.second)
        #expect((state.registration(1) != nil) == stillShown)
        #expect(state.detailLoss.retiredRegistrations == (stillShown ? 0 : 1))
        #expect(state.detailLoss.registrationsEvictedByCap == 0)
    }

    @Test("events about unknown registrations are counted, not lost silently")
    func unknownRegistration() {
        var s = TraceScript()
        let post = s.post("a", matched: 1)
        s.deliver(post, to: 99, name: "a")
        s.remove(98)
        s.dropToken(97)
        let state = s.fold()
        #expect(state.detailLoss.unknownRegistrationEvents == 3)
        #expect(state.name("a")?.deliveries == 1)
        #expect(state.totals.deliveries == 1)
    }

    @Test("a missed removal is kept with its object, name and callsite")
    func missedRemoval() throws {
        var s = TraceScript()
        s.missRemoval(observer: 7, name: "a", site: 33)
        let state = s.fold()
        #expect(state.totals.missedRemovals == 1)
        let missed = try #require(state.recentMissedRemovals.first)
        #expect(missed.observer.typeName == "App.Screen" && missed.name == "a" && missed.callsite.line == 33)
    }
}

@Suite struct ThreadLogTests {
    @Test(
        "per-thread deliveries, time in handlers and posts",
        arguments: [
            (UInt64(1), UInt64(2), UInt64(3_000), UInt64(2)),
            (2, 1, 7_000, 0),
        ])
    func figures(thread: UInt64, deliveries: UInt64, time: UInt64, posts: UInt64) {
        var s = TraceScript()
        s.register(1, "a")
        s.register(2, "a", target: .dispatchQueue)
        let first = s.post("a", matched: 2)
        s.deliver(first, to: 1, name: "a", thread: 1, duration: 1_000)
        s.deliver(first, to: 2, name: "a", thread: 2, duration: 7_000, wait: 3_000, target: .dispatchQueue)
        s.postAndDeliver("a", to: [1], duration: 2_000)
        let row = s.fold().thread(thread)!
        #expect(row.deliveries == deliveries)
        #expect(row.timeInHandlers == time)
        #expect(row.posts == posts)
    }

    @Test("a log entry records time, name, observer, threads, wait, duration and depth")
    func entry() throws {
        var s = TraceScript()
        s.register(1, "a", kind: .ownerBound, observer: 7, target: .dispatchQueue)
        let post = s.post("a", matched: 1, thread: 1)
        s.deliver(
            post, to: 1, name: "a", thread: 2, postingThread: 1, duration: 900, wait: 4_000, depth: 2,
            target: .dispatchQueue)
        let state = s.fold()
        let entry = try #require(state.thread(2)?.recentDeliveries.last)
        #expect(entry.name == "a" && entry.postID == post && entry.registration == 1)
        #expect(entry.observerType == "App.Screen")
        #expect(entry.postingThread == 1 && entry.deliveringThread == 2)
        #expect(entry.wait == 4_000 && entry.duration == 900 && entry.depth == 2)
        #expect(entry.start == state.now - 900)
        #expect(state.thread(1)?.isMain == true && state.thread(2)?.isMain == false)
        #expect(state.thread(2)?.name == "worker")
    }

    @Test("the log keeps the newest entries and counts the rest", arguments: [4, 16])
    func ringLog(capacity: Int) {
        var s = TraceScript()
        s.register(1, "a")
        for _ in 0..<20 { s.postAndDeliver("a", to: [1]) }
        var configuration = InspectorConfiguration()
        configuration.threadLogCapacity = capacity
        let state = s.fold(configuration)
        let row = state.thread(1)!
        #expect(row.recentDeliveries.count == capacity)
        #expect(row.recentDeliveries.map(\.postID) == Array(UInt64(20 - capacity + 1)...20))
        #expect(row.droppedLogEntries == UInt64(20 - capacity))
        #expect(row.deliveries == 20)
        #expect(state.detailLoss.overwrittenLogEntries == UInt64(20 - capacity))
    }
}
