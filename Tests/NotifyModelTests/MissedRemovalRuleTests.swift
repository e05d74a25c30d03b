import NotifyModel
import NotifyTestSupport
import Testing

/// R11: a removal that ended nothing is a finding of its own, at its call site.
@Suite struct MissedRemovalRuleTests {
    @Test("a removal that ended nothing is a warning at its site, counted per site")
    func missedRemovalIsAFinding() throws {
        var s = TraceScript()
        s.missRemoval(observer: 7, name: "a", site: 33)
        s.advance(1_000)
        s.missRemoval(observer: 7, name: "a", site: 33)
        s.missRemoval(observer: 7, name: nil, site: 34)
        let findings = s.fold().findings.filter { $0.rule == .missedRemoval }
        #expect(findings.count == 2)
        let first = try #require(findings.first { $0.evidence.callsite?.line == 33 })
        #expect(first.severity == .warning && first.isOpen)
        #expect(first.evidence.count == 2 && first.evidence.name == "a")
        #expect(first.summary.contains("removeObserver at App/File.swift:33 ended nothing"))
        #expect(LeakRule(rawValue: "R11") == .missedRemoval)
    }

    @Test("explain of the name says which removal ended nothing, at its site")
    func explainSaysSo() {
        var s = TraceScript()
        s.missRemoval(observer: 7, name: "a", site: 33)
        s.missRemoval(observer: 7, name: "b", site: 34)
        let notes = s.fold().explain(name: "a").notes
        #expect(
            notes.filter { $0.hasPrefix("remove-missed:") } == [
                "remove-missed: removeObserver at App/File.swift:33 ended nothing: the token is another center's "
                    + "or was removed already"
            ])
    }

    @Test("R11 can be switched off")
    func switchedOff() {
        var s = TraceScript()
        s.missRemoval(observer: 7, name: "a", site: 33)
        var configuration = InspectorConfiguration()
        configuration.rules.enabledRules.remove(.missedRemoval)
        #expect(s.fold(configuration).findings.isEmpty)
    }
}
