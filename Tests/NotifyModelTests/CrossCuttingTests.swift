import NotifyTestSupport
import NotifyWire
import NotifyModel
import Testing

/// Behaviour every rule shares: one finding per root cause, resolution and re-opening,
/// suppression, switches, and the fix line.
@Suite struct CrossCuttingTests {
    @Test("every rule has an id, a title and a one-line fix", arguments: LeakRule.allCases)
    func ruleText(rule: LeakRule) {
        #expect(rule.code == "R\(rule.number)")
        #expect(!rule.title.isEmpty && rule.title == rule.title.uppercased())
        #expect(!rule.fix.isEmpty && !rule.fix.contains("\n"))
    }

    @Test("rules order by number, so R10 follows R9")
    func ruleOrder() {
        #expect(LeakRule.allCases.sorted() == LeakRule.allCases)
        #expect(LeakRule.unheardPost < LeakRule.neverPosted)
    }

    @Test("a resolved finding re-opens when its condition returns, keeping one finding")
    func reopen() throws {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.dropToken(1)
        s.remove(1, reason: .explicit)
        s.advance(TraceScript.second)
        s.register(2, "a", site: 10)
        s.dropToken(2)
        let findings = s.fold().all(.orphanedRegistration)
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.isOpen)
        #expect(finding.occurrences == 2)
        #expect(finding.firstSeen == TraceScript.start + TraceScript.second)
    }

    @Test(
        "suppressions silence one rule at one callsite or for one name",
        arguments: [
            (LeakSuppression.callsite(.orphanedRegistration, file: "App/File.swift", line: 10), false, true),
            (.callsite(.orphanedRegistration, file: "App/File.swift", line: 11), true, true),
            (.name(.unheardPost, "typo"), true, false),
            (.name(.orphanedRegistration, "typo"), true, true),
        ])
    func suppression(suppression: LeakSuppression, orphanReported: Bool, unheardReported: Bool) {
        var s = TraceScript()
        s.register(1, "a", site: 10)
        s.dropToken(1)
        s.register(2, "typos", site: 12)
        s.post("typo", matched: 0)
        var configuration = InspectorConfiguration()
        configuration.rules.suppressions = [suppression]
        let state = s.fold(configuration)
        #expect(!state.all(.orphanedRegistration).isEmpty == orphanReported)
        #expect(!state.all(.unheardPost).isEmpty == unheardReported)
    }

    @Test("a disabled rule never raises", arguments: LeakRule.allCases)
    func disabled(rule: LeakRule) {
        var configuration = InspectorConfiguration.fastCheckpoints
        configuration.rules.enabledRules = Set(LeakRule.allCases).subtracting([rule])
        let state = Self.everything.fold(configuration)
        #expect(state.all(rule).isEmpty)
        #expect(!Self.everything.fold(.fastCheckpoints).all(rule).isEmpty, "the script must trigger \(rule)")
    }

    /// One script that triggers every rule.
    static var everything: TraceScript {
        var s = TraceScript()
        s.register(1, "orphan", site: 1)
        s.dropToken(1)  // R1
        s.register(2, "seq", kind: .sequence, site: 2)
        s.remove(2, reason: .sequenceEnded)  // R2
        s.register(3, "dead", object: 8, site: 3)
        s.remove(3, reason: .objectDeallocated)  // R3
        s.register(4, "self", kind: .ownerBound, observer: 7, site: 4, captures: true)  // R4
        s.register(5, "dup", kind: .target, observer: 9, site: 5)
        s.register(6, "dup", kind: .target, observer: 9, site: 5)  // R5
        s.register(7, "main", site: 7, mainOnly: true)
        s.postAndDeliver("main", to: [7], thread: 2)  // R8
        s.postAndDeliver("main", to: [7], duration: 300 * TraceScript.ms)  // R7
        s.post("dupp", matched: 0)  // R9
        s.register(8, "never", site: 8)  // R10
        s.missRemoval(observer: 19, name: "gone", site: 30)  // R11
        for id in 20..<26 {  // R6
            s.register(UInt64(id), "grow", site: 20)
            s.advance(2 * TraceScript.ms)
            s.post("pulse", matched: 0)
        }
        return s
    }

    @Test("findings list oldest first and evidence names the rule's primary key")
    func listing() {
        let state = Self.everything.fold(.fastCheckpoints)
        let ordinals = state.findings.map(\.ordinal)
        #expect(ordinals == ordinals.sorted())
        for finding in state.findings {
            #expect(finding.evidence.name != nil, "\(finding.key) has no name")
            #expect(!finding.summary.isEmpty)
            #expect(finding.fix == finding.rule.fix)
        }
    }
}
