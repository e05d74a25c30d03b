import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// R7 slow handler, R8 thread mismatch, R9 unheard post, R10 never posted.
@Suite struct DeliveryRuleTests {
    static let ms = TraceScript.ms

    // MARK: R7

    @Test(
        "R7 grades one handler run by the thresholds",
        arguments: [
            (UInt64(10) * ms, nil as LeakSeverity?),
            (16 * ms, .info),
            (120 * ms, .warning),
            (300 * ms, .error),
        ])
    func slowHandler(duration: UInt64, severity: LeakSeverity?) throws {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.postAndDeliver("a", to: [1], site: 20, duration: duration)
        let handler = s.fold().open(.slowHandler).filter { $0.key.subject == .callsite(10) }
        #expect(handler.map(\.severity) == (severity.map { [$0] } ?? []))
        if let finding = handler.first {
            #expect(finding.evidence.duration == duration)
            #expect(finding.evidence.relatedCallsites.map(\.line) == [20])
            #expect(finding.evidence.postingThreadIsMain == true)
            #expect(finding.evidence.observersInPost == 1)
        }
    }

    @Test("R7 reports a post whose handlers together block the poster, only on the total")
    func slowPostTotal() throws {
        var s = TraceScript()
        for id in 1...3 { s.register(UInt64(id), "a", site: UInt64(10 + id)) }
        s.postAndDeliver("a", to: [1, 2, 3], site: 20, duration: 40 * Self.ms)
        var configuration = InspectorConfiguration()
        configuration.rules.slowHandler = SeverityThresholds(info: nil, warning: 100 * Self.ms, error: 250 * Self.ms)
        let open = s.fold(configuration).open(.slowHandler)
        #expect(open.map(\.key.subject) == [.nameAtCallsite("a", callsite: 20)])
        #expect(open.first?.severity == .warning)
        #expect(open.first?.evidence.duration == 120 * Self.ms)
    }

    @Test("R7 control: handed-off handlers do not block the poster")
    func handedOffIsNotBlocking() {
        var s = TraceScript()
        for id in 1...3 { s.register(UInt64(id), "a", target: .dispatchQueue, site: UInt64(10 + id)) }
        let post = s.post("a", matched: 3)
        for id in 1...3 {
            s.deliver(post, to: UInt64(id), name: "a", thread: 2, duration: 40 * Self.ms, target: .dispatchQueue)
        }
        var configuration = InspectorConfiguration()
        configuration.rules.slowHandler = SeverityThresholds(info: nil, warning: 100 * Self.ms, error: nil)
        #expect(s.fold(configuration).open(.slowHandler).isEmpty)
    }

    @Test("R7 keeps the slow runs' distribution")
    func slowDistribution() throws {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        for duration: UInt64 in [20, 30, 40, 200] { s.postAndDeliver("a", to: [1], duration: duration * Self.ms) }
        let finding = try #require(s.fold().open(.slowHandler).first { $0.key.subject == .callsite(10) })
        #expect(finding.evidence.count == 4)
        #expect(finding.severity == .warning)
        #expect(finding.evidence.durations?.count == 4)
        #expect(finding.evidence.durations?.max == 200 * Self.ms)
    }

    // MARK: R8

    static let mismatches: [(Scenario, [LeakSubject], LeakSeverity?)] = [
        (
            Scenario("a main-only handler run on a worker thread") { s in
                s.register(1, "a", site: 10, mainOnly: true)
                s.postAndDeliver("a", to: [1], thread: 2)
            }, [.callsite(10)], .error
        ),
        (
            Scenario("control: a main-only handler run on the main thread") { s in
                s.register(1, "a", site: 10, mainOnly: true)
                s.postAndDeliver("a", to: [1], thread: 1)
            }, [], nil
        ),
        (
            Scenario("control: a worker post to a handler with no declaration") { s in
                s.register(1, "a", site: 10)
                s.postAndDeliver("a", to: [1], thread: 2)
            }, [], nil
        ),
        (
            Scenario("a name posted from main and from a worker (no declarations): info") { s in
                s.register(1, "a", site: 10)
                s.postAndDeliver("a", to: [1], thread: 1)
                s.postAndDeliver("a", to: [1], thread: 2)
            }, [.name("a")], .info
        ),
        (
            // The main actor runs on a worker thread once the main thread parks in dispatchMain().
            Scenario("control: a main-actor message posted on the main thread and on a worker") { s in
                s.register(1, "App.CartChanged", site: 10)
                for thread: UInt64 in [1, 2] {
                    let post = s.post("App.CartChanged", matched: 1, thread: thread, message: .mainActor)
                    s.deliver(post, to: 1, name: "App.CartChanged", thread: thread, postingThread: thread)
                }
            }, [], nil
        ),
    ]

    @Test("R8 thread mismatch", arguments: mismatches)
    func threadMismatch(scenario: Scenario, subjects: [LeakSubject], severity: LeakSeverity?) {
        let open = scenario.script.fold().open(.threadMismatch)
        #expect(open.map(\.key.subject) == subjects)
        #expect(open.first?.severity == severity)
    }

    @Test("R8 counts violations and names both threads")
    func mismatchEvidence() throws {
        var s = TraceScript()
        s.register(1, "a", site: 10, mainOnly: true)
        s.postAndDeliver("a", to: [1], thread: 2, site: 20)
        s.postAndDeliver("a", to: [1], thread: 2, site: 20)
        let finding = try #require(s.fold().open(.threadMismatch).first)
        #expect(finding.evidence.count == 2)
        #expect(finding.evidence.threads == [2])
        #expect(finding.evidence.postingThreadIsMain == false)
        #expect(finding.evidence.relatedCallsites.map(\.line) == [20])
    }

    // MARK: R9

    static let unheard: [(Scenario, String, LeakSeverity?, String?)] = [
        (
            Scenario("a near typo of a registered name is a warning") { s in
                s.register(1, "userDidLogin")
                s.post("userDidLogn", matched: 0)
            }, "userDidLogn", .warning, "userDidLogin"
        ),
        (
            Scenario("control: no near name, never observed: a broadcast, not reported") { s in
                s.register(1, "userDidLogin")
                s.post("cacheFlushed", matched: 0)
            }, "cacheFlushed", nil, nil
        ),
        (
            Scenario("a name registered later near an unheard one upgrades it") { s in
                s.post("userDidLogn", matched: 0)
                s.register(1, "userDidLogin")
                s.remove(1)
            }, "userDidLogn", .warning, "userDidLogin"
        ),
        (
            Scenario("control: a heard post") { s in
                s.register(1, "a")
                s.postAndDeliver("a", to: [1])
            }, "a", nil, nil
        ),
        (
            Scenario("control: resolved once ten posts in a row are heard") { s in
                s.register(1, "userDidLogin")
                s.post("userDidLogn", matched: 0)
                s.register(2, "userDidLogn")
                for _ in 0..<10 { s.postAndDeliver("userDidLogn", to: [2]) }
            }, "userDidLogn", nil, nil
        ),
    ]

    @Test("R9 unheard post", arguments: unheard)
    func unheardPost(scenario: Scenario, name: String, severity: LeakSeverity?, nearest: String?) {
        let open = scenario.script.fold().open(.unheardPost)
        #expect(open.map(\.key.subject) == (severity == nil ? [] : [.name(name)]))
        #expect(open.first?.severity == severity)
        #expect(open.first?.evidence.nearestName == nearest)
    }

    @Test("R9 aggregates per name and honours the allowlist")
    func unheardAggregates() {
        var s = TraceScript()
        s.register(1, "broadcasts")
        for _ in 0..<3 { s.post("broadcast", matched: 0, thread: 2, site: 20) }
        #expect(s.fold().open(.unheardPost).first?.evidence.count == 3)
        #expect(s.fold().all(.unheardPost).count == 1)
        var configuration = InspectorConfiguration()
        configuration.rules.unheardAllowlist = ["broadcast"]
        #expect(s.fold(configuration).all(.unheardPost).isEmpty)
    }

    // MARK: R10

    @Test("R10 and R9 on the Reachability#163 pattern: both warnings, each naming the other")
    func reachability() throws {
        var s = TraceScript()
        s.register(1, "kNetworkReachabilityChangedNotification", site: 10)
        for _ in 0..<3 {
            s.advance(2 * Self.ms)
            s.post("kReachabilityChangedNotification", matched: 0)
        }
        // The checkpoint due at the third post runs before it; the next one, on the clock line, counts it.
        s.advance(Self.ms)
        s.tick()
        let state = s.fold(.fastCheckpoints)
        let never = try #require(state.open(.neverPosted).first)
        #expect(never.severity == .warning)
        #expect(never.evidence.nearestName == "kReachabilityChangedNotification")
        #expect(never.evidence.callsite?.line == 10)
        #expect(never.evidence.sessionPosts == 3)
        let unheard = try #require(state.open(.unheardPost).first)
        #expect(unheard.severity == .warning)
        #expect(unheard.evidence.nearestName == "kNetworkReachabilityChangedNotification")
    }

    @Test("R10 raised at info before its near name was first posted becomes a warning at that post")
    func nearNamePostedLater() throws {
        var s = TraceScript()
        s.register(1, "kNetworkReachabilityChangedNotification", site: 10)
        for index in 0..<4 {
            s.advance(2 * Self.ms)
            s.checkpoint("screen \(index)")
        }
        let early = try #require(s.fold(.fastCheckpoints).open(.neverPosted).first)
        #expect(early.severity == .info)
        #expect(early.evidence.nearestName == nil)
        s.advance(Self.ms)
        s.post("kReachabilityChangedNotification", matched: 0)
        let late = try #require(s.fold(.fastCheckpoints).open(.neverPosted).first)
        #expect(late.severity == .warning)
        #expect(late.evidence.nearestName == "kReachabilityChangedNotification")
        #expect(late.summary.hasSuffix("; \"kReachabilityChangedNotification\" is posted"), "\(late.summary)")
    }

    static let neverPosted: [(Scenario, LeakSeverity?)] = [
        (
            Scenario("observed through three checkpoints, never posted, nothing near: info") { s in
                s.register(1, "quietName")
                for _ in 0..<3 { s.advance(2 * ms); s.post("other", matched: 0) }
            }, .info
        ),
        (
            Scenario("three app checkpoints (center.checkpoint) count as checkpoints") { s in
                s.register(1, "quietName")
                for index in 0..<3 { s.checkpoint("screen closed \(index)") }
            }, .info
        ),
        (
            Scenario("control: only two checkpoints so far (one per millisecond of stream time)") { s in
                s.register(1, "quietName")
                for _ in 0..<2 { s.advance(ms); s.post("other", matched: 0) }
            }, nil
        ),
        (
            Scenario("control: posted after all") { s in
                s.register(1, "quietName")
                for _ in 0..<3 { s.advance(2 * ms); s.post("other", matched: 0) }
                s.postAndDeliver("quietName", to: [1])
            }, nil
        ),
        (
            Scenario("control: the observer went away") { s in
                s.register(1, "quietName")
                for _ in 0..<3 { s.advance(2 * ms); s.post("other", matched: 0) }
                s.remove(1)
            }, nil
        ),
    ]

    @Test("R10 never posted", arguments: neverPosted)
    func neverPostedName(scenario: Scenario, severity: LeakSeverity?) {
        let open = scenario.script.fold(.fastCheckpoints).open(.neverPosted)
        #expect(open.map(\.severity) == (severity.map { [$0] } ?? []))
    }

    @Test("R10 also fires after the configured stream time, without checkpoints counted")
    func neverPostedByTime() {
        var s = TraceScript()
        s.register(1, "quietName")
        s.advance(31 * TraceScript.second)
        s.post("other", matched: 0)
        var configuration = InspectorConfiguration()
        configuration.rules.checkpointInterval = 1_000 * TraceScript.second
        var state = s.fold(configuration)
        #expect(state.open(.neverPosted).isEmpty)  // no automatic checkpoint has run yet
        state.checkpoint()
        #expect(state.open(.neverPosted).count == 1)
    }
}
