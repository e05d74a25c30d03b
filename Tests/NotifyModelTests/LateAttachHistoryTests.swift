import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// A viewer attached late folds the snapshot's history (format 1.4) into the same names,
/// threads, totals and findings as a viewer attached from the first event.
@Suite struct LateAttachHistoryTests {
    static let second = TraceScript.second
    static let ms = TraceScript.ms

    static var configuration: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.rules.checkpointInterval = second
        return configuration
    }

    /// Seven seconds of an app with every rule history must carry: growth at one callsite (R6),
    /// a name observed and never posted (R10), one posted only early (R10 must stay silent), a
    /// typo posted unheard early (R9), a name posted on main early and on a worker late (R8), an
    /// orphaned block delivering late (R1), a thread used only early, and an explicit checkpoint.
    static var app: TraceScript {
        var s = TraceScript()
        s.thread(3, name: "early")
        s.register(1, "cart", site: 101)
        s.register(2, "cart", site: 102, thread: 2)
        s.register(6, "sessionDidChange", site: 106)
        s.register(7, "mixed", site: 107)
        s.register(8, "drop", site: 108)
        // Declares cart main-thread-only, so cart posted on main and on "early" is no mixed-thread
        // name; it never runs, so no delivery breaks the declaration.
        s.register(9, "cart", site: 109, mainOnly: true)
        s.advance(100 * ms)
        s.register(4, "never", site: 104)
        s.register(5, "quiet", site: 105, thread: 2)
        var growth: UInt64 = 10
        for step in 0..<60 {
            // Every 100 ms; growth registers at x.5 s, from 1.5 s on.
            s.advance(100 * ms)
            let offset = (s.time - TraceScript.start) / ms
            if offset % 1_000 == 500 {
                s.register(growth, "growth", site: 500)
                growth += 1
            }
            s.postAndDeliver("cart", to: [1, 2])
            switch step {
            case 2:
                s.postAndDeliver("cart", to: [1, 2], thread: 3)
                s.dropToken(8)
            case 5, 6, 7: s.post("sessionDidChnge", matched: 0, site: 206)
            case 8: s.postAndDeliver("quiet", to: [5], thread: 2)
            case 9: s.postAndDeliver("mixed", to: [7])
            case 11: s.checkpoint("screen closed")
            case 40: s.postAndDeliver("mixed", to: [7], thread: 2)
            // After every cut: a snapshot does not say whether runs before it came after the
            // token was dropped, so only a run in the stream makes R1 an error.
            case 58: s.postAndDeliver("drop", to: [8])
            default: break
            }
        }
        s.advance(200 * ms)
        s.tick()
        return s
    }

    static func fold(_ events: [TraceEvent]) -> InspectorState {
        var state = InspectorState(configuration: configuration)
        for event in events {
            state.apply(event)
            if let t = event.timestamp { state.tick(now: t) }
        }
        return state
    }

    /// The index of the first event at or after `offset` into the app's run.
    static func cut(_ events: [TraceEvent], at offset: UInt64) -> Int {
        events.firstIndex { ($0.timestamp ?? 0) >= TraceScript.start + offset } ?? events.count
    }

    struct NameFigures: Equatable, CustomStringConvertible {
        var name: String
        var posts: UInt64
        var deliveries: UInt64
        var unheard: UInt64
        var observers: Int
        var description: String { "\(name) \(posts)/\(deliveries)/\(unheard)/\(observers)" }
    }

    static func names(_ state: InspectorState) -> [NameFigures] {
        state.names.map {
            NameFigures(
                name: $0.name, posts: $0.posts, deliveries: $0.deliveries, unheard: $0.postsWithNoObserver,
                observers: $0.liveObservers)
        }
    }

    static func threads(_ state: InspectorState) -> [String] {
        state.threads.map { "\($0.id) \($0.name) \($0.posts)/\($0.deliveries)" }
    }

    static func registrations(_ state: InspectorState) -> [String] {
        state.registrations.filter(\.isLive).map {
            "#\($0.id) \($0.displayName) on \($0.registeringThread) at \($0.registeredAt): \($0.deliveries)"
        }
    }

    static func findings(_ state: InspectorState) -> [String] {
        state.findings.filter(\.isOpen).map { "\($0.key) \($0.severity)" }.sorted()
    }

    @Test(
        "a trace cut in two, its first part sent as a snapshot with history, folds like the whole trace",
        arguments: [2_300 * ms, 4_200 * ms, 5_800 * ms], [true, false])
    func cutTraceFoldsLikeWhole(at offset: UInt64, historyFirst: Bool) {
        let events = Self.app.events
        let whole = Self.fold(LateAttachSnapshot.whole(events, since: TraceScript.start))
        let late = Self.fold(
            LateAttachSnapshot.late(
                events, cut: Self.cut(events, at: offset), since: TraceScript.start, unusedThread: 7,
                historyFirst: historyFirst))
        #expect(Self.names(late) == Self.names(whole))
        #expect(Self.threads(late) == Self.threads(whole))
        #expect(late.totals.posts == whole.totals.posts)
        #expect(late.totals.deliveries == whole.totals.deliveries)
        #expect(late.overview.threads == whole.overview.threads)
        #expect(Self.registrations(late) == Self.registrations(whole))
        #expect(Self.findings(late) == Self.findings(whole))
        // The scenario plants what it says: the comparison is not of two empty lists.
        let rules = Set(whole.findings.filter(\.isOpen).map(\.rule))
        #expect(
            rules.isSuperset(of: [
                .registrationGrowth, .neverPosted, .unheardPost, .threadMismatch, .orphanedRegistration,
            ]))
        #expect(whole.name("quiet").map { $0.posts } == 1)
        #expect(late.beganLate && !whole.beganLate)
    }

    @Test("a name posted before the attach is not reported as never posted")
    func historyPostsSilenceNeverPosted() {
        // Attached after a minute, to a registration made at the start.
        var s = TraceScript()
        s.advance(60 * Self.second)
        s.register(1, "a", preexisting: true)
        var events = [TraceEvent.header(LateAttachSnapshot.header(since: TraceScript.start))]
        events += s.events.map { event in
            guard case .registered(var registration) = event else { return event }
            registration.registeredAt = TraceScript.start
            return .registered(registration)
        }
        events.append(.history(TraceHistory(timestamp: s.time, thread: 2, name: "a", posts: 348, deliveries: 348)))
        s.advance(40 * Self.second)
        s.tick()
        events.append(s.events.last!)
        let state = Self.fold(events)
        #expect(state.open(.neverPosted).isEmpty)
        #expect(state.name("a")?.posts == 348)
        #expect(state.thread(2)?.posts == 348)
    }

    @Test("registration growth before the attach is judged from site counts at the checkpoints it passed")
    func growthFromSiteCounts() {
        // Three live at the attach (4.2 s), made at 1.5, 2.5 and 3.5 s: counts 1, 2, 3 at the
        // checkpoints of 2, 3 and 4 s. One more at 4.5 s makes 4 at the checkpoint of 5 s.
        let attach = TraceScript.start + 3_200 * Self.ms
        let made = { (live: UInt64) in TraceScript.start + (live * 1_000 - 500) * Self.ms }
        var events: [TraceEvent] = [
            .header(LateAttachSnapshot.header(since: TraceScript.start)),
            .thread(TraceThread(seq: 1, timestamp: attach, id: 1, systemID: 1, name: "main", isMain: true)),
            .callsite(TraceCallsite(id: 500, file: "App/Profile.swift", line: 500)),
        ]
        for live: UInt64 in 1...3 {
            events.append(.siteCount(TraceSiteCount(timestamp: made(live), name: "growth", callsite: 500, live: live)))
        }
        for id: UInt64 in 1...4 {
            let late = id == 4
            events.append(
                .registered(
                    TraceRegistration(
                        seq: 1 + id, timestamp: late ? made(4) : attach, thread: 1, id: id, name: "growth",
                        kind: .block, observer: nil, object: nil, target: .posting, targetLabel: nil, callsite: 500,
                        preexisting: !late, capturesObserverStrongly: false, registeredAt: made(id))))
        }
        events.append(.tick(TraceTick(seq: 6, timestamp: made(5))))
        let state = Self.fold(events)
        #expect(state.open(.registrationGrowth).first?.evidence.series == [1, 2, 3, 4])
        // Without the counts before the attach, the series has only begun.
        let unknown = Self.fold(events.filter { if case .siteCount = $0 { false } else { true } })
        #expect(unknown.open(.registrationGrowth).isEmpty)
    }

    @Test("a thread introduced but never used for notifications is not listed or counted")
    func unusedThreadIsNotListed() {
        var s = TraceScript()
        s.thread(8, name: "exporter")
        s.register(1, "a")
        s.postAndDeliver("a", to: [1])
        let state = s.fold()
        #expect(state.threads.map(\.id) == [1])
        #expect(state.overview.threads == 1)
        #expect(state.thread(8)?.name == "exporter", "still known by name")
    }

    @Test("a registration made before the attach on a thread that did nothing else lists that thread")
    func registeringThreadIsListed() {
        var s = TraceScript()
        s.register(1, "a", thread: 2, preexisting: true)
        let state = s.fold()
        #expect(state.threads.map(\.id) == [2])
        #expect(state.registration(1)?.registeringThread == 2)
    }

    @Test("history of names the app could not keep counts in the totals and threads, in no name's row")
    func otherNamesHistory() {
        var s = TraceScript()
        s.tick()
        var events = s.events
        events.append(.history(TraceHistory(timestamp: s.time, thread: 2, name: nil, posts: 5, deliveries: 9)))
        events.append(.history(TraceHistory(timestamp: s.time, thread: 2, name: nil, posts: 1)))
        let state = Self.fold(events)
        #expect(state.totals.posts == 6 && state.totals.deliveries == 9)
        #expect(state.totals.otherNamePosts == 6 && state.totals.otherNameDeliveries == 9)
        #expect(state.names.map(\.name) == ["*"])
        #expect(state.otherNames.map { ($0.name, $0.posts, $0.deliveries) } ?? ("", 0, 0) == ("(other names)", 6, 9))
        #expect(state.names.first?.posts == 6)
        #expect(state.thread(2).map { ($0.posts, $0.deliveries) } ?? (0, 0) == (6, 9))
    }

    @Test("a wildcard registration's deliveries before the attach count in its row and the * row")
    func wildcardDeliveriesFromSnapshot() {
        var s = TraceScript()
        s.register(1, nil, preexisting: true)
        var events = s.events
        if case .registered(var registration) = events.removeLast() {
            registration.deliveries = 12
            events.append(.registered(registration))
        }
        let state = Self.fold(events)
        #expect(state.registration(1)?.deliveries == 12)
        #expect(state.names.first?.deliveries == 12)
        #expect(state.beganLate)
    }

    @Test("a stream without history is not late: its timings cover every handler run")
    func plainStreamIsNotLate() {
        var s = TraceScript()
        s.register(1, "a", preexisting: true)
        s.postAndDeliver("a", to: [1])
        #expect(!s.fold().beganLate)
    }
}
