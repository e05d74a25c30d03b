import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// What explain says about the posts it covers and the registrations it sums up, and R5 on
/// several centers: found on real programs, where one name is posted hundreds of times and
/// observers registered later pile up.
@Suite("Explain's window, later registrations, R5 by center")
struct ExplainWindowTests {
    @Test("a name posted more often than kept says how many older posts are not explained")
    func windowIsStated() {
        var script = TraceScript()
        script.register(1, "save")
        for _ in 0..<40 { script.postAndDeliver("save", to: [1]) }
        let explanation = script.fold().explain(name: "save")
        #expect(explanation.posts.count == 32)
        #expect(
            explanation.notes.contains("the last 32 posts of \"save\" are kept; 8 older ones are not explained"))
    }

    @Test("every post is explained when the configuration keeps more, and then nothing is said")
    func windowWidens() {
        var script = TraceScript()
        script.register(1, "save")
        for _ in 0..<40 { script.postAndDeliver("save", to: [1]) }
        var configuration = InspectorConfiguration()
        configuration.explainPostsPerName = 64
        var state = InspectorState(configuration: configuration)
        for event in script.events { state.apply(event) }
        let explanation = state.explain(name: "save")
        #expect(explanation.posts.count == 40)
        #expect(explanation.posts.allSatisfy { $0.considered.first?.reason == .delivered })
        #expect(!explanation.notes.contains { $0.hasPrefix("the last ") })
    }

    @Test("registrations made after a post are counted in one line, not listed one by one")
    func laterRegistrationsAreSummed() throws {
        var script = TraceScript()
        script.register(1, "tick", site: 101)
        script.post("tick", matched: 1)
        script.advance(2_500)
        for id: UInt64 in 2...13 {
            script.register(id, "tick", site: 100 + id)
            script.advance(1_000)
        }
        let state = script.fold()
        let post = try #require(state.explain(name: "tick").posts.last)
        #expect(post.considered.map(\.registration) == [1])
        #expect(post.registeredLater?.count == 12)
        #expect(post.registeredLater?.summary == "12 registered later, the first 2.5 µs after the post")
        // Asked about one of them, its verdict is still there.
        let one = state.explain(name: "tick", registration: 5).posts.last
        #expect(one?.considered.map(\.reason) == [.registeredAfter])
        #expect(one?.registeredLater == nil)
    }

    @Test("R5: a duplicate on each of two centers is two findings; each summary states its center and count")
    func duplicateFindingsPerCenter() {
        var script = TraceScript(centers: ["default", "sync"])
        script.register(1, "a", site: 30, center: 0)
        script.register(2, "a", site: 30, center: 0)
        script.register(3, "a", site: 30, center: 1)
        script.register(4, "a", site: 30, center: 1)
        script.register(5, "a", site: 30, center: 1)
        let findings = script.fold().findings.filter { $0.rule == .duplicateRegistration && $0.isOpen }
        #expect(findings.count == 2)
        let sync = findings.first { $0.evidence.registrations.contains(3) }
        #expect(sync?.evidence.registrations == [3, 4, 5])
        #expect(sync?.summary.contains("made 3 times") == true)
        #expect(sync?.summary.contains("on center \"sync\"") == true)
        let main = findings.first { $0.evidence.registrations.contains(1) }
        #expect(main?.evidence.registrations == [1, 2])
        #expect(main?.summary.contains("made 2 times") == true)
    }
}
