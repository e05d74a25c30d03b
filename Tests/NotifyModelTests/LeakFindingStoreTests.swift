import Testing

@testable import NotifyModel

/// The store answers for a rule with no findings without looking its key up; these pin that the
/// per-rule bookkeeping follows raises and evictions, so no finding is ever missed.
@Suite struct LeakFindingStoreTests {
    private func key(_ rule: LeakRule, _ name: String) -> LeakFindingKey {
        LeakFindingKey(rule: rule, subject: .name(name))
    }

    @Test func aRuleWithNoFindingsAnswersNothingAndARaisedOneIsFound() {
        var store = LeakFindingStore(maximum: 16)
        #expect(!store.isOpen(key(.unheardPost, "a")))
        #expect(store[key(.unheardPost, "a")] == nil)
        store.raise(key(.unheardPost, "a"), severity: .info, summary: "a", at: 1)
        #expect(store.isOpen(key(.unheardPost, "a")))
        #expect(!store.isOpen(key(.neverPosted, "a")))
        let resolved = store.resolve(key(.unheardPost, "a"), at: 2)
        #expect(resolved)
        #expect(store[key(.unheardPost, "a")]?.resolvedAt == 2)
    }

    @Test func evictionForgetsARuleOnlyWhenItsLastFindingGoes() {
        var store = LeakFindingStore(maximum: 8)
        store.raise(key(.neverPosted, "kept"), severity: .error, summary: "kept", at: 1)
        for index in 0..<7 { store.raise(key(.unheardPost, "n\(index)"), severity: .info, summary: "n", at: 2) }
        // Full: the next raise evicts one info finding (the oldest), never the error.
        store.raise(key(.unheardPost, "new"), severity: .info, summary: "new", at: 3)
        #expect(store.dropped == 1)
        #expect(store.isOpen(key(.neverPosted, "kept")))
        #expect(store.isOpen(key(.unheardPost, "new")))
        #expect(store[key(.unheardPost, "n0")] == nil)
        #expect(store.isOpen(key(.unheardPost, "n1")))
    }

    @Test func updateResolvingResolvesOnlyWhenTheBodySaysSo() {
        var store = LeakFindingStore(maximum: 4)
        let finding = key(.duplicateRegistration, "x")
        store.raise(finding, severity: .info, summary: "x", at: 1) { $0.evidence.liveCount = 2 }
        store.update(finding, resolvingAt: 5) { finding in
            finding.evidence.liveCount -= 1
            return finding.evidence.liveCount <= 0
        }
        #expect(store.isOpen(finding))
        store.update(finding, resolvingAt: 6) { finding in
            finding.evidence.liveCount -= 1
            return finding.evidence.liveCount <= 0
        }
        #expect(store[finding]?.resolvedAt == 6)
        #expect(store[finding]?.evidence.liveCount == 0)
    }

    @Test func disablingARuleThroughItsSetStopsIt() {
        var rules = LeakRuleConfiguration()
        #expect(rules.runs(.duplicateRegistration))
        rules.enabledRules.remove(.duplicateRegistration)
        #expect(!rules.runs(.duplicateRegistration))
        #expect(rules.runs(.registrationGrowth))
        rules.enabledRules = [.neverPosted]
        #expect(rules.runs(.neverPosted) && !rules.runs(.orphanedRegistration))
    }

    @Test func rulesHashAndOrderByNumber() {
        #expect(LeakRule.allCases.map(\.number) == Array(1...11))
        #expect(Set(LeakRule.allCases).count == 11)
        #expect(LeakRule.unheardPost < LeakRule.neverPosted)
    }
}
