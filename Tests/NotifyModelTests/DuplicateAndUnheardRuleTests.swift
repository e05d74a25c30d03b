import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// R5 keyed by the observer, not the call site; R9 reporting mistakes (typos, abandoned names),
/// not broadcasts, and not flapping.
@Suite struct DuplicateAndUnheardRuleTests {
    // MARK: R5

    @Test("R5: the same owner registered from init and from viewDidLoad is a duplicate with both sites")
    func duplicateAcrossCallsites() throws {
        var s = TraceScript()
        s.register(1, "themeDidChange", kind: .target, observer: 7, site: 10)  // init
        s.register(2, "themeDidChange", kind: .target, observer: 7, site: 20)  // viewDidLoad
        s.postAndDeliver("themeDidChange", to: [1, 2])
        let state = s.fold()
        let finding = try #require(state.open(.duplicateRegistration).first)
        #expect(state.open(.duplicateRegistration).count == 1)
        #expect(finding.severity == .error)
        #expect(finding.key.subject == .nameAtCallsite("themeDidChange", callsite: 10))
        #expect(finding.evidence.relatedCallsites.map(\.line) == [10, 20])
        #expect(finding.evidence.registrations == [1, 2])
        #expect(finding.evidence.fanOut == 2)
        #expect(finding.summary.contains("App/File.swift:10") && finding.summary.contains("App/File.swift:20"))
    }

    @Test("R5: every instance of the screen adds to one finding, resolved when the last pair goes")
    func duplicateInstancesShareAFinding() throws {
        var s = TraceScript()
        for (index, owner) in [UInt64(7), 8].enumerated() {
            let first = UInt64(10 * index + 1)
            s.register(first, "themeDidChange", kind: .target, observer: owner, site: 10)
            s.register(first + 1, "themeDidChange", kind: .target, observer: owner, site: 20)
        }
        var state = s.fold()
        #expect(state.all(.duplicateRegistration).count == 1)
        #expect(try #require(state.open(.duplicateRegistration).first).evidence.liveCount == 2)
        for id in [UInt64(1), 2, 11] { s.remove(id, reason: .explicit) }
        state = s.fold()
        #expect(state.all(.duplicateRegistration).first?.isOpen == false)
    }

    @Test("R5: the summary says how many registrations the owner made at once, as the count grows")
    func summaryCountsEveryDuplicate() throws {
        var s = TraceScript()
        for id in UInt64(1)...3 { s.register(id, "themeDidChange", kind: .target, observer: 7, site: 10) }
        let finding = try #require(s.fold().open(.duplicateRegistration).first)
        #expect(finding.evidence.count == 3)
        #expect(finding.summary.contains(" 3 times for \"themeDidChange\""), "\(finding.summary)")
    }

    @Test("R5: blocks with no owner whose site the trace did not see are never grouped by it")
    func unseenSitesAreNotOnePlace() {
        var s = TraceScript()
        s.site(50, file: "not seen: registered before attach", line: 0)
        s.site(60, file: "unknown", line: 0)
        for id in UInt64(1)...3 { s.register(id, "a", site: 50, preexisting: true) }
        for id in UInt64(4)...5 { s.register(id, "a", site: 60) }
        #expect(s.fold().all(.duplicateRegistration).isEmpty)
    }

    @Test("R5: the same owner with different object filters at different sites is not a duplicate")
    func differentFiltersAreNotDuplicates() {
        var s = TraceScript()
        s.register(1, "themeDidChange", kind: .target, observer: 7, object: 8, site: 10)
        s.register(2, "themeDidChange", kind: .target, observer: 7, object: 9, site: 20)
        #expect(s.fold().all(.duplicateRegistration).isEmpty)
    }

    @Test("R5: blocks with no owner at different callsites are not grouped; at one callsite, info")
    func blockFallbackUnchanged() throws {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.register(2, "a", site: 20)
        #expect(s.fold().all(.duplicateRegistration).isEmpty)
        s.register(3, "a", site: 10)
        let finding = try #require(s.fold().open(.duplicateRegistration).first)
        #expect(finding.severity == .info)
        #expect(finding.key.subject == .nameAtCallsite("a", callsite: 10))
    }

    // MARK: R9

    @Test("R9: a broadcast nobody listens to now is not reported, however often it is posted")
    func broadcastWithoutListeners() {
        var s = TraceScript()
        s.register(1, "userDidLogin")
        for _ in 0..<200 { s.post("DataDidSync", matched: 0) }
        #expect(s.fold().all(.unheardPost).isEmpty)
    }

    @Test("R9: listeners that come and go (screens opening and closing) do not make a finding")
    func broadcastWithTransientListeners() {
        var s = TraceScript()
        var id: UInt64 = 0
        for _ in 0..<40 {
            id += 1
            s.register(id, "DataDidSync", kind: .ownerBound, observer: 100 + id)
            for _ in 0..<5 { s.postAndDeliver("DataDidSync", to: [id]) }
            s.remove(id, reason: .observerDeallocated)
            for _ in 0..<20 { s.post("DataDidSync", matched: 0) }
        }
        #expect(s.fold().all(.unheardPost).isEmpty)
    }

    @Test("R9: a typo of a registered name is a warning naming the registered one")
    func typo() throws {
        var s = TraceScript()
        s.register(1, "SessionDidChange")
        s.post("SesionDidChange", matched: 0)
        let finding = try #require(s.fold().open(.unheardPost).first)
        #expect(finding.key.subject == .name("SesionDidChange"))
        #expect(finding.severity == .warning)
        #expect(finding.evidence.nearestName == "SessionDidChange")
    }

    /// "DataDidSync" observed, its observer removed, then posted `silent` times.
    static func abandoned(silent: Int) -> TraceScript {
        var s = TraceScript()
        s.register(1, "DataDidSync", kind: .ownerBound, observer: 7)
        s.postAndDeliver("DataDidSync", to: [1])
        s.remove(1, reason: .explicit)
        for _ in 0..<silent { s.post("DataDidSync", matched: 0) }
        return s
    }

    @Test(
        "R9: a name whose observers all went away while posts go on",
        arguments: [
            (49, false), (50, true),
        ])
    func abandonedName(silent: Int, reported: Bool) throws {
        let open = Self.abandoned(silent: silent).fold().open(.unheardPost)
        #expect(open.count == (reported ? 1 : 0))
        if reported {
            let finding = try #require(open.first)
            #expect(finding.key.subject == .name("DataDidSync"))
            #expect(finding.severity == .info)
            #expect(finding.evidence.count == 50)
            #expect(finding.evidence.nearestName == nil)
        }
    }

    @Test("R9: once open it stays open over 1,000 posts alternating with observer churn, then resolves")
    func noFlapping() throws {
        var s = Self.abandoned(silent: 50)
        let opened = s.events.count
        var id: UInt64 = 100
        for index in 0..<1_000 {
            if index % 2 == 0 {
                id += 1
                s.register(id, "DataDidSync", kind: .ownerBound, observer: 7)
                s.postAndDeliver("DataDidSync", to: [id])
                s.remove(id, reason: .explicit)
            } else {
                s.post("DataDidSync", matched: 0)
            }
        }
        var state = InspectorState()
        var firstSeen: UInt64?
        for (index, event) in s.events.enumerated() {
            state.apply(event)
            if let t = event.timestamp { state.tick(now: t) }
            guard index >= opened - 1 else { continue }
            let findings = state.all(.unheardPost)
            let finding = try #require(findings.first, "no R9 after event \(index)")
            #expect(findings.count == 1 && finding.isOpen, "R9 closed at event \(index)")
            if firstSeen == nil { firstSeen = finding.firstSeen }
            #expect(finding.firstSeen == firstSeen, "R9 reopened at event \(index)")
            if !finding.isOpen { break }
        }
        #expect(state.all(.unheardPost).first?.evidence.count == 50 + 500)

        // The clear condition: an observer stays and ten posts in a row are heard.
        s.register(9_999, "DataDidSync", kind: .ownerBound, observer: 7)
        for _ in 0..<9 { s.postAndDeliver("DataDidSync", to: [9_999]) }
        #expect(s.fold().open(.unheardPost).count == 1)
        s.postAndDeliver("DataDidSync", to: [9_999])
        #expect(s.fold().open(.unheardPost).isEmpty)
        #expect(s.fold().all(.unheardPost).count == 1)
    }
}
