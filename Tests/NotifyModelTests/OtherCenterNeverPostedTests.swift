import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// R10 on another center: an observer on `sync` of a name posted only to `default` is reported
/// once it has waited, resolved when the name reaches its center or the observer ends, and never
/// claimed from posts whose center the stream did not say.
@Suite("R10: observed on a center the name is never posted to")
struct OtherCenterNeverPostedTests {
    /// Registration 1 on `default`, 2 and 3 on `sync` at one site, all of `settingsDidChange`;
    /// posts to `default` only, over `checkpoints` checkpoints.
    private func script(checkpoints: Int) -> TraceScript {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "settingsDidChange", center: 0)
        script.register(2, "settingsDidChange", site: 101, center: 1)
        script.register(3, "settingsDidChange", site: 101, center: 1)
        for step in 0..<checkpoints {
            let post = script.post("settingsDidChange", matched: 1, center: 0)
            script.deliver(post, to: 1, name: "settingsDidChange")
            script.checkpoint("step \(step)")
        }
        return script
    }

    /// R10's findings about a site (the other-center kind; the plain kind is about a name).
    private func findings(_ state: InspectorState) -> [LeakFinding] {
        state.findings.filter {
            if $0.rule == .neverPosted, case .nameAtCallsite = $0.key.subject { true } else { false }
        }
    }

    @Test("after three checkpoints: one warning for the site, naming both centers and both registrations")
    func raised() throws {
        let state = script(checkpoints: 3).fold()
        let finding = try #require(findings(state).first)
        #expect(findings(state).count == 1)
        #expect(finding.severity == .warning)
        #expect(finding.isOpen)
        #expect(finding.evidence.name == "settingsDidChange")
        #expect(finding.evidence.callsite?.id == 101)
        #expect(finding.evidence.registrations == [2, 3])
        #expect(finding.summary.contains("on center \"sync\""))
        #expect(finding.summary.contains("posted only to \"default\""))
        let fields = finding.evidence.fields(duration: { "\($0)" }, thread: { "\($0)" }, rule: finding.rule)
        #expect(fields.first { $0.label == "checkpoints waited" }?.value == "3")
        // Its effects: the posts the observers missed, each other-center.
        let effects = state.effects(of: finding).effects
        #expect(!effects.isEmpty)
        #expect(effects.allSatisfy { !$0.caused && [2, 3].contains($0.registration) })
    }

    @Test("two checkpoints are not enough; one center of one stream never raises it")
    func notBeforeItsTime() {
        #expect(findings(script(checkpoints: 2).fold()).isEmpty)
        var single = TraceScript()
        single.register(1, "settingsDidChange")
        for step in 0..<5 {
            _ = single.post("settingsDidChange", matched: 1)
            single.checkpoint("step \(step)")
        }
        #expect(findings(single.fold()).isEmpty)
    }

    @Test("resolved by the name's first post to the observers' center")
    func resolvedByAPost() throws {
        var script = script(checkpoints: 3)
        _ = script.post("settingsDidChange", matched: 2, center: 1)
        let finding = try #require(findings(script.fold()).first)
        #expect(!finding.isOpen)
    }

    @Test("resolved when the site's last waiting observer ends, not before")
    func resolvedByRemovals() throws {
        var script = script(checkpoints: 3)
        script.remove(2)
        #expect(try #require(findings(script.fold()).first).isOpen)
        script.remove(3)
        #expect(try #require(findings(script.fold()).first).isOpen == false)
    }

    @Test("posts counted by a late viewer's history, without their center, claim nothing")
    func historyWithoutCenters() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(2, "settingsDidChange", site: 101, center: 1)
        let head = script.events.count
        for step in 0..<4 {
            _ = script.post("settingsDidChange", matched: 0, center: 0)
            script.checkpoint("step \(step)")
        }
        let history = TraceEvent.history(
            TraceHistory(timestamp: script.time, thread: 1, name: "settingsDidChange", posts: 7, deliveries: 0))
        var withHistory = InspectorState()
        withHistory.apply(Array(script.events[..<head]) + [history] + Array(script.events[head...]))
        #expect(findings(withHistory).isEmpty)
        // The same stream without the history line: the name reached only `default`.
        #expect(findings(script.fold()).count == 1)
    }

    @Test("the same events give the same findings, live or replayed in any batching")
    func pure() {
        let events = script(checkpoints: 4).events
        var whole = InspectorState()
        whole.apply(events)
        var oneByOne = InspectorState()
        for event in events { oneByOne.apply([event]) }
        #expect(whole.findings == oneByOne.findings)
    }

    @Test("an observer registered long before the name's first post elsewhere still waits its checkpoints")
    func waitsFromTheFirstPostElsewhere() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(2, "settingsDidChange", site: 101, center: 1)
        script.advance(40_000_000_000)
        _ = script.post("settingsDidChange", matched: 0, center: 0)
        script.checkpoint("first")
        #expect(findings(script.fold()).isEmpty, "raised at the first checkpoint after the first post")
        script.checkpoint("second")
        script.checkpoint("third")
        #expect(findings(script.fold()).count == 1)
    }

    @Test("posts to a center the header does not list claim nothing about the listed ones")
    func unlistedCenter() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(2, "settingsDidChange", site: 101, center: 1)
        for step in 0..<4 {
            _ = script.post("settingsDidChange", matched: 0, center: 300)
            script.checkpoint("step \(step)")
        }
        let state = script.fold()
        #expect(findings(state).isEmpty)
        #expect(state.findings.allSatisfy { !$0.summary.hasSuffix("posted only to ") })
    }
}
