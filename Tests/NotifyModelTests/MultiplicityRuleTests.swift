import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// R4 self-retaining handler, R5 duplicate registration, R6 registration growth.
@Suite struct MultiplicityRuleTests {
    // MARK: R4

    static let selfRetaining: [(Scenario, Int?)] = [
        (
            Scenario("a handler whose context is its owner") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
            }, 1
        ),
        (
            Scenario("two self-capturing registrations of one owner are one finding with k = 2") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
                s.register(2, "b", kind: .ownerBound, observer: 7, site: 11, captures: true)
            }, 2
        ),
        (
            Scenario("control: a handler that does not capture its owner") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
            }, nil
        ),
        (
            Scenario("control: resolved once the owner's registrations are gone") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
                s.remove(1, reason: .explicit)
            }, nil
        ),
    ]

    @Test("R4 self-retaining handler (suspected)", arguments: selfRetaining)
    func selfRetainingHandler(scenario: Scenario, k: Int?) {
        let open = scenario.script.fold().open(.selfRetainingHandler)
        #expect(open.map(\.evidence.liveCount) == (k.map { [$0] } ?? []))
        if let finding = open.first {
            #expect(finding.severity == .warning)
            #expect(finding.key.subject == .observer(7))
            #expect(finding.evidence.relatedCallsites.map(\.line) == Array(10..<(10 + UInt(k!))))
        }
    }

    @Test("R4 folds the owner's dropped tokens and duplicates into itself")
    func selfRetainingFolds() throws {
        var s = TraceScript()
        s.register(1, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
        s.register(2, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
        s.dropToken(1)
        s.postAndDeliver("a", to: [1, 2])
        let state = s.fold()
        let finding = try #require(state.open(.selfRetainingHandler).first)
        #expect(finding.evidence.foldedRules == [.duplicateRegistration, .orphanedRegistration])
        #expect(finding.evidence.fanOut == 2)
        #expect(state.all(.duplicateRegistration).isEmpty)
        #expect(state.all(.orphanedRegistration).isEmpty)
    }

    @Test("R4 is off for an owner type marked immortal")
    func immortalType() {
        var configuration = InspectorConfiguration()
        configuration.rules.suppressions = [.immortalType("App.Screen")]
        #expect(Self.selfRetaining[0].0.script.fold(configuration).all(.selfRetainingHandler).isEmpty)
    }

    // MARK: R5

    static let duplicates: [(Scenario, LeakSeverity?, UInt64)] = [
        (
            Scenario("one owner registers three times at one callsite") { s in
                for id in 1...3 { s.register(UInt64(id), "a", kind: .target, observer: 7, site: 10) }
            }, .warning, 3
        ),
        (
            Scenario("one post runs the duplicated handler three times: error") { s in
                for id in 1...3 { s.register(UInt64(id), "a", kind: .target, observer: 7, site: 10) }
                s.postAndDeliver("a", to: [1, 2, 3])
            }, .error, 3
        ),
        (
            Scenario("blocks with no owner fall back to info") { s in
                s.register(1, "a", site: 10)
                s.register(2, "a", site: 10)
            }, .info, 2
        ),
        (
            Scenario("control: two owners at the same callsite") { s in
                s.register(1, "a", kind: .target, observer: 7, site: 10)
                s.register(2, "a", kind: .target, observer: 8, site: 10)
            }, nil, 0
        ),
        (
            Scenario("control: the same owner with different object filters") { s in
                s.register(1, "a", kind: .target, observer: 7, object: 8, site: 10)
                s.register(2, "a", kind: .target, observer: 7, object: 9, site: 10)
            }, nil, 0
        ),
        (
            Scenario("control: re-registering after removing") { s in
                s.register(1, "a", kind: .target, observer: 7, site: 10)
                s.remove(1, reason: .explicit)
                s.register(2, "a", kind: .target, observer: 7, site: 10)
            }, nil, 0
        ),
        (
            Scenario("control: a block whose first token was dropped is not a live duplicate") { s in
                s.register(1, "a", site: 10)
                s.dropToken(1)
                s.register(2, "a", site: 10)
            }, nil, 0
        ),
    ]

    @Test("R5 duplicate registration", arguments: duplicates)
    func duplicate(scenario: Scenario, severity: LeakSeverity?, count: UInt64) {
        let open = scenario.script.fold().open(.duplicateRegistration)
        #expect(open.map(\.severity) == (severity.map { [$0] } ?? []))
        if let finding = open.first {
            #expect(finding.key.subject == .nameAtCallsite("a", callsite: 10))
            #expect(finding.evidence.count == count)
            #expect(finding.evidence.fanOut == (severity == .error ? 3 : 0))
        }
    }

    @Test("R5 resolves when the duplicates go away")
    func duplicateResolution() {
        var s = TraceScript()
        s.register(1, "a", kind: .target, observer: 7, site: 10)
        s.register(2, "a", kind: .target, observer: 7, site: 10)
        s.remove(2, reason: .explicit)
        let finding = s.fold().all(.duplicateRegistration).first
        #expect(finding?.isOpen == false)
    }

    // MARK: R6

    /// Opens a screen that registers at callsite 10 `opens` times, with a checkpoint after each;
    /// a leaking screen never removes, a well-behaved one removes on close.
    static func screens(opens: Int, leaking: Bool) -> Scenario {
        Scenario("\(opens) opens, \(leaking ? "leaking" : "removing on close")") { s in
            for id in 1...opens {
                s.register(UInt64(id), "a", kind: .ownerBound, observer: UInt64(100 + id), site: 10)
                s.advance(2 * TraceScript.ms)
                s.post("tick", matched: 0)  // an event at which the 1 ms checkpoint falls
                if !leaking { s.remove(UInt64(id), reason: .explicit) }
            }
        }
    }

    @Test(
        "R6 growth fires after the 4th checkpoint, not before, and not for a flat series",
        arguments: [
            (screens(opens: 3, leaking: true), nil as [Int]?),
            (screens(opens: 4, leaking: true), [1, 2, 3, 4]),
            (screens(opens: 6, leaking: true), [3, 4, 5, 6]),
            (screens(opens: 6, leaking: false), nil),
        ])
    func growth(scenario: Scenario, series: [Int]?) {
        let open = scenario.script.fold(.fastCheckpoints).open(.registrationGrowth)
        #expect(open.map(\.evidence.series) == (series.map { [$0] } ?? []))
        if let finding = open.first {
            #expect(finding.key.subject == .nameAtCallsite("a", callsite: 10))
            #expect(finding.severity == .warning)
        }
    }

    @Test("R6 growth resolves when the count falls below the minimum")
    func growthResolution() {
        var s = Self.screens(opens: 4, leaking: true).script
        for id in 1...4 { s.remove(UInt64(id), reason: .explicit) }
        let finding = s.fold(.fastCheckpoints).all(.registrationGrowth).first
        #expect(finding?.isOpen == false)
    }

    @Test(
        "R6 budget: over budget is a warning, over ten times is an error, back within resolves",
        arguments: [
            (3, nil as LeakSeverity?),
            (4, .warning),
            (31, .error),
        ])
    func budget(registrations: Int, severity: LeakSeverity?) {
        var s = TraceScript()
        for id in 1...registrations { s.register(UInt64(id), "hot", site: UInt64(10 + id)) }
        var configuration = InspectorConfiguration()
        configuration.rules.registrationBudgets = ["hot": 3]
        var open = s.fold(configuration).open(.registrationGrowth)
        #expect(open.map(\.severity) == (severity.map { [$0] } ?? []))
        #expect(open.first?.key.subject == severity.map { _ in .name("hot") })
        for id in 4..<(registrations + 1) { s.remove(UInt64(id)) }
        open = s.fold(configuration).open(.registrationGrowth)
        #expect(open.isEmpty)
    }
}
