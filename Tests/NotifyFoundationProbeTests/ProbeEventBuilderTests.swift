import NotifyFoundationProbe
import NotifyWire
import Testing

/// Foundation's calls, as the probes see them, become the trace events NotifyKit's inspector would
/// send: registrations keyed by their token, deliveries tied to their registration and post.
@Suite struct ProbeEventBuilderTests {
    let lookups = testLookups

    func events(_ lines: [String]) -> [TraceEvent] { probeEvents(lines) }

    @Test func aDuplicateRegistrationAndItsDeliveriesAndRemoval() {
        let events = events([
            // Two registrations of one block from one call site: tokens 0 and 1 of "cart".
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 74726163 e400000000000000",
            "a 1 110 0 0",
            "A 1 120 c0 0 0 f1 0 fa 12 12 S 74726163 e400000000000000",
            "a 1 130 1 0",
            // A post on thread 2 runs both.
            "P 2 200 c0 0 0 fa 20 20 S 74726163 e400000000000000",
            "D 2 210 aaa f1 0",
            "d 2 250",
            "D 2 260 bbb f1 0",
            "d 2 300",
            // The second post: the contexts are already tied to their registrations.
            "P 2 400 c0 0 0 fa 20 20 S 74726163 e400000000000000",
            "D 2 410 bbb f1 0",
            "d 2 420",
            "R 1 500 c0 1 0 fa 30 30 S 74726163 e400000000000000",
        ])
        let registrations = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(registrations.map(\.id) == [1, 2])
        #expect(registrations.map(\.name) == ["cart", "cart"])
        #expect(registrations[0].callsite == registrations[1].callsite)
        let posts = events.compactMap { if case .posted(let p) = $0 { p } else { nil } }
        #expect(posts.map(\.matched) == [2, 2])
        #expect(posts.map(\.depth) == [1, 1])
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.registration) == [1, 2, 2])
        #expect(deliveries.map(\.postID) == [posts[0].postID, posts[0].postID, posts[1].postID])
        #expect(deliveries.map(\.duration) == [40, 40, 10])
        #expect(deliveries.map(\.timestamp) == [250, 300, 420])
        let removals = events.compactMap { if case .removed(let r) = $0 { r } else { nil } }
        #expect(removals.map(\.registration) == [2])
        // The removal names the removeObserver call's site, like the add's and the post's.
        let sites = events.compactMap { if case .callsite(let c) = $0 { c } else { nil } }
        #expect(removals.first?.callsite.flatMap { id in sites.first { $0.id == id } }?.line == 0x30)
        #expect(removals.first?.callsite != registrations[0].callsite)
        // Every thread is introduced before a line names it; seq increases.
        let threads = events.compactMap { if case .thread(let t) = $0 { t.systemID } else { nil } }
        #expect(threads == [1, 2])
        let numbers = events.compactMap(\.seq)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
    }

    @Test func typedMessagesAreMarkedAndAnAsyncObserversEnqueueIsNoRun() {
        // Foundation's message `post` calls `_post` from its own code: the first return address.
        let typed = ProbeEventBuilder.Lookups(
            threadName: lookups.threadName, site: lookups.site, typeName: lookups.typeName,
            message: { callers in callers.first == 0xe1 ? .mainActor : callers.first == 0xe2 ? .async : nil })
        var builder = ProbeEventBuilder(pid: 1, lookups: typed)
        var events: [TraceEvent] = []
        for line in [
            "P 1 100 c0 0 0 e1 e1 30 S 61 e100000000000000", "D 1 110 aaa f9 0", "p 1 120",
            "P 1 200 c0 0 0 e2 e2 31 S 62 e100000000000000", "D 1 210 bbb f8 0", "p 1 220",
            "P 1 300 c0 0 0 e2 e2 31 S 62 e100000000000000", "D 1 310 bbb f8 0", "p 1 320",
            "P 1 400 c0 0 0 fa fa 32 S 63 e100000000000000",
        ] {
            builder.add(ProbeLine(line[...])!, to: &events)
        }
        let posts = events.compactMap { if case .posted(let p) = $0 { p } else { nil } }
        #expect(posts.map(\.message) == [.mainActor, .async, .async, nil])
        let registrations = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(registrations.map(\.kind) == [.mainActorMessage, .asyncMessage])
        #expect(registrations.map(\.target) == [.posting, .task])
        #expect(registrations.map(\.name) == ["a", "b"])
        let sites = events.compactMap { if case .callsite(let c) = $0 { c } else { nil } }
        #expect(
            registrations.map { r in sites.first { $0.id == r.callsite }?.file }
                == ["not seen: typed message observer", "not seen: typed message observer"])
        // The main actor observer ran inside its post; the async one's runs were not seen.
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.registration) == [registrations[0].id])
        #expect(deliveries.map(\.duration) == [10])
    }

    @Test func aPostInsideAHandlerIsNestedAndItsOuterPostResumes() {
        let events = events([
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 61 e100000000000000",
            "a 1 110 0 0",
            "A 1 120 c0 0 0 f2 0 fa 13 13 S 62 e100000000000000",
            "a 1 130 0 0",
            "A 1 140 c0 0 0 f3 0 fa 14 14 S 61 e100000000000000",
            "a 1 150 1 0",
            "P 1 200 c0 0 0 fa 20 20 S 61 e100000000000000",
            "D 1 210 aaa f1 0",
            "P 1 220 c0 0 0 fa 21 21 S 62 e100000000000000",
            "D 1 230 bbb f2 0",
            "d 1 240",
            "d 1 250",
            // The outer post's second observer runs after the inner post is over.
            "D 1 260 ccc f3 0",
            "d 1 270",
        ])
        let posts = events.compactMap { if case .posted(let p) = $0 { p } else { nil } }
        #expect(posts.map(\.depth) == [1, 2])
        #expect(posts[1].parentPostID == posts[0].postID)
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.postID) == [posts[1].postID, posts[0].postID, posts[0].postID])
        #expect(deliveries.map(\.name) == ["b", "a", "a"])
        #expect(deliveries.map(\.registration) == [2, 1, 3])
        #expect(deliveries.map(\.depth) == [2, 1, 1])
        #expect(deliveries.map(\.duration) == [10, 40, 10])
    }

    @Test func matchedCountsTheNameTheEveryNameAndTheObjectFilterOfTheCenter() {
        let events = events([
            // "a" on any object, "a" on object 7f00 only, every name; and "a" on another center.
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 61 e100000000000000", "a 1 101 0 0",
            "A 1 110 c0 7f00 5500 f2 0 fa 13 13 S 61 e100000000000000", "a 1 111 0 7f00",
            "A 1 120 c0 0 0 f3 0 fa 14 14 N", "a 1 121 0 0",
            "A 1 130 c1 0 0 f4 0 fa 15 15 S 61 e100000000000000", "a 1 131 0 0",
            "P 1 200 c0 7f00 5500 fa 20 20 S 61 e100000000000000",
            "P 1 210 c0 7e00 5500 fa 20 20 S 61 e100000000000000",
            "P 1 220 c0 0 0 fa 20 20 S 62 e100000000000000",
            "R 1 300 c0 0 0 fa 30 30 N",
            "P 1 310 c0 0 0 fa 20 20 S 62 e100000000000000",
        ])
        let posts = events.compactMap { if case .posted(let p) = $0 { p } else { nil } }
        #expect(posts.map(\.matched) == [3, 2, 1, 0])
        let removals = events.compactMap { if case .removed(let r) = $0 { r.registration } else { nil } }
        #expect(removals == [3])
    }

    @Test func oneClosureObservingTwoNamesIsToldApartByThePostsName() {
        let events = events([
            "A 1 100 c0 0 0 f1 0 fa 12 12 S 61 e100000000000000", "a 1 101 0 0",
            "A 1 110 c0 0 0 f1 0 fa 13 13 S 62 e100000000000000", "a 1 111 0 0",
            "P 1 200 c0 0 0 fa 20 20 S 62 e100000000000000", "D 1 210 bbb f1 0", "d 1 220",
            "P 1 300 c0 0 0 fa 20 20 S 61 e100000000000000", "D 1 310 aaa f1 0", "d 1 320",
        ])
        let deliveries = events.compactMap { if case .delivered(let d) = $0 { d } else { nil } }
        #expect(deliveries.map(\.registration) == [2, 1])
    }

    @Test func aRegistrationMadeBeforeAttachingIsIntroducedAsFoundLive() {
        let events = events([
            "P 1 200 c0 7f00 5500 fa 20 20 S 61 e100000000000000",
            "D 1 210 aaa f9 0",
            "d 1 240",
            "D 1 250 aaa f9 0",
            "Lost 3 events",
            // After a loss, ends cannot be paired with starts: nothing is made up.
            "d 1 300",
            "P 1 400 c0 0 0 fa 20 20 S 61 e100000000000000",
            "D 1 410 aaa f9 0",
            "d 1 430",
        ])
        let registrations = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(registrations.count == 1)
        #expect(registrations.first?.preexisting == true)
        #expect(registrations.first?.name == "a")
        let objects = events.compactMap { if case .object(let o) = $0 { o.address } else { nil } }
        #expect(objects == [0x7f00])
        let gaps = events.compactMap { if case .gap(let g) = $0 { g.count } else { nil } }
        #expect(gaps == [3])
        let durations = events.compactMap { if case .delivered(let d) = $0 { d.duration } else { nil } }
        #expect(durations == [30, 20])
    }
}

extension TraceEvent {
    /// The line's number, nil for definitions.
    var seq: UInt64? {
        switch self {
        case .thread(let e): e.seq
        case .registered(let e): e.seq
        case .posted(let e): e.seq
        case .delivered(let e): e.seq
        case .removed(let e): e.seq
        case .gap(let e): e.seq
        default: nil
        }
    }
}
