import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// R1 orphaned registration, R2 premature removal, R3 dead participant: each with cases that
/// must fire and controls that must not.
@Suite struct LifetimeRuleTests {
    // MARK: R1

    static let orphans: [(Scenario, LeakSeverity?)] = [
        (
            Scenario("a dropped block token is an orphan (warning)") { s in
                s.register(1, "a", site: 10)
                s.dropToken(1)
            }, .warning
        ),
        (
            Scenario("an orphan that delivers escalates to error") { s in
                s.register(1, "a", site: 10)
                s.dropToken(1)
                s.postAndDeliver("a", to: [1])
            }, .error
        ),
        (
            Scenario("control: a stored token that is cancelled") { s in
                s.register(1, "a", site: 10)
                s.postAndDeliver("a", to: [1])
                s.remove(1, reason: .tokenCancelled)
            }, nil
        ),
        (
            Scenario("control: a delivery before the drop does not escalate") { s in
                s.register(1, "a", site: 10)
                s.postAndDeliver("a", to: [1])
                s.dropToken(1)
            }, .warning
        ),
        (
            Scenario("control: an owner-bound token may be dropped (it ends with its owner)") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
                s.dropToken(1)
            }, nil
        ),
    ]

    @Test("R1 orphaned registration", arguments: orphans)
    func orphaned(scenario: Scenario, severity: LeakSeverity?) {
        let state = scenario.script.fold()
        let open = state.open(.orphanedRegistration)
        #expect(open.map(\.severity) == (severity.map { [$0] } ?? []))
        if let finding = open.first {
            #expect(finding.key.subject == .callsite(10))
            #expect(finding.evidence.registrations == [1])
            #expect(finding.evidence.name == "a")
            #expect(finding.evidence.deliveriesAfter == (severity == .error ? 1 : 0))
        }
    }

    @Test("R1 is one finding per callsite, resolved when its last orphan is removed")
    func orphanDedupAndResolution() throws {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.register(2, "a", site: 10)
        s.dropToken(1)
        s.dropToken(2)
        var state = s.fold()
        #expect(state.all(.orphanedRegistration).count == 1)
        #expect(state.open(.orphanedRegistration).first?.evidence.count == 2)
        s.remove(1, reason: .explicit)
        state = s.fold()
        #expect(state.open(.orphanedRegistration).first?.evidence.liveCount == 1)
        s.advance(3 * TraceScript.second)
        s.remove(2, reason: .explicit)
        state = s.fold()
        let finding = try #require(state.all(.orphanedRegistration).first)
        #expect(!finding.isOpen)
        #expect(finding.resolvedAfter == 3 * TraceScript.second)
    }

    @Test("a missed removeObserver for an orphaned name joins the R1 evidence")
    func orphanMissedRemoval() {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.dropToken(1)
        s.missRemoval(observer: 7, name: "a", site: 55)
        let finding = s.fold().open(.orphanedRegistration).first
        #expect(finding?.evidence.relatedCallsites.map(\.line) == [55])
    }

    // MARK: R2

    static let premature: [(Scenario, [LeakSubject])] = [
        (
            Scenario("(a) a sequence ended before any post") { s in
                s.register(1, "a", kind: .sequence, site: 10)
                s.remove(1, reason: .sequenceEnded)
            }, [.callsite(10)]
        ),
        (
            Scenario("control (a): a sequence that saw a post") { s in
                s.register(1, "a", kind: .sequence, site: 10)
                s.postAndDeliver("a", to: [1])
                s.remove(1, reason: .sequenceEnded)
            }, []
        ),
        (
            Scenario("(b) an owner removes, misses two posts, registers again") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
                s.register(9, "a", site: 90)
                s.remove(1, reason: .tokenCancelled)
                s.postAndDeliver("a", to: [9], site: 21)
                s.postAndDeliver("a", to: [9], site: 22)
                s.register(2, "a", kind: .ownerBound, observer: 7, site: 11)
            }, [.nameAtCallsite("a", callsite: 11)]
        ),
        (
            Scenario("control (b): no post while the owner was away") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
                s.remove(1, reason: .tokenCancelled)
                s.register(2, "a", kind: .ownerBound, observer: 7, site: 11)
            }, []
        ),
        (
            Scenario("control (b): the owner died, a new owner is not the same one") { s in
                s.register(1, "a", kind: .target, observer: 7, site: 10)
                s.remove(1, reason: .observerDeallocated)
                s.post("a", matched: 0)
                s.register(2, "a", kind: .target, observer: 7, site: 11)
            }, []
        ),
        (
            Scenario("control (b): the owner still had another registration for the name") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
                s.register(2, "a", kind: .ownerBound, observer: 7, object: 8, site: 12)
                s.remove(1, reason: .tokenCancelled)
                s.post("a", matched: 0)
                s.register(3, "a", kind: .ownerBound, observer: 7, site: 11)
            }, []
        ),
    ]

    @Test("R2 premature removal", arguments: premature)
    func prematureRemoval(scenario: Scenario, subjects: [LeakSubject]) {
        let findings = scenario.script.fold().all(.prematureRemoval)
        #expect(findings.map(\.key.subject) == subjects)
    }

    @Test("R2(b) reports the missed posts, their posters and the gap, as info")
    func prematureEvidence() throws {
        let scenario = Self.premature[2].0
        let finding = try #require(scenario.script.fold().all(.prematureRemoval).first)
        #expect(finding.severity == .info)
        #expect(finding.evidence.count == 2)
        #expect(finding.evidence.relatedCallsites.map(\.line) == [21, 22])
        #expect(finding.evidence.observer?.typeName == "App.Screen")
        let sequence = try #require(Self.premature[0].0.script.fold().all(.prematureRemoval).first)
        #expect(sequence.severity == .warning)
    }

    @Test("R2(b) forgets a gap after the window")
    func prematureWindow() {
        var s = TraceScript()
        s.register(1, "a", kind: .ownerBound, observer: 7)
        s.remove(1)
        s.post("a", matched: 0)
        s.advance(10 * TraceScript.ms)
        s.post("z", matched: 0)  // a checkpoint falls here, before the owner comes back
        s.register(2, "a", kind: .ownerBound, observer: 7)
        var configuration = InspectorConfiguration.fastCheckpoints
        configuration.rules.prematureRemovalWindow = 5 * TraceScript.ms
        var state = s.fold(configuration)
        #expect(state.all(.prematureRemoval).isEmpty)
        state = s.fold(.fastCheckpoints)
        #expect(state.all(.prematureRemoval).count == 1)
    }

    // MARK: R3

    static let dead: [(Scenario, [LeakSubject], LeakSeverity?)] = [
        (
            Scenario("a dead sender is an error") { s in
                s.register(1, "a", object: 8, site: 10)
                s.remove(1, reason: .objectDeallocated)
            }, [.participant(callsite: 10, sender: true)], .error
        ),
        (
            Scenario("a dead target observer is a warning") { s in
                s.register(1, "a", kind: .target, observer: 7, site: 10)
                s.remove(1, reason: .observerDeallocated)
            }, [.participant(callsite: 10, sender: false)], .warning
        ),
        (
            Scenario("control: an owner-bound registration ending with its owner") { s in
                s.register(1, "a", kind: .ownerBound, observer: 7, site: 10)
                s.remove(1, reason: .observerDeallocated)
            }, [], nil
        ),
        (
            Scenario("control: a target removed in deinit") { s in
                s.register(1, "a", kind: .target, observer: 7, site: 10)
                s.remove(1, reason: .explicit)
            }, [], nil
        ),
    ]

    @Test("R3 dead participant", arguments: dead)
    func deadParticipant(scenario: Scenario, subjects: [LeakSubject], severity: LeakSeverity?) {
        let findings = scenario.script.fold().open(.deadParticipant)
        #expect(findings.map(\.key.subject) == subjects)
        #expect(findings.first?.severity == severity)
        #expect(findings.first?.evidence.deliveriesAfter ?? 0 == 0)
    }

    @Test("R3 reports owner-bound purges when configured to")
    func ownerBoundPurgeOptIn() {
        var configuration = InspectorConfiguration()
        configuration.rules.reportsOwnerBoundPurges = true
        let state = Self.dead[2].0.script.fold(configuration)
        #expect(state.open(.deadParticipant).count == 1)
    }
}
