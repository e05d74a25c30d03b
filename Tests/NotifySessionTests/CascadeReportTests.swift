import NotifyModel
import NotifySession
import NotifyTestSupport
import NotifyWire
import Testing

/// `notifytop explain --post SEQ --cascade` and `--posted-by`: the text and JSON of a tree.
struct CascadeReportTests {
    /// Post 1 on main runs #1 inline, which posts 2; 2's #2 runs on worker after a queue wait.
    static func model() -> (InspectorState, outer: UInt64, inner: UInt64) {
        var script = TraceScript()
        script.thread(1, name: "main", isMain: true)
        script.thread(2, name: "worker")
        script.register(1, "Outer", site: 10)
        script.register(2, "Inner", target: .dispatchQueue, site: 11)
        let start = script.time
        let outer = script.post("Outer", matched: 1, site: 20)
        script.advance(100)
        let inner = script.post("Inner", matched: 1, site: 21, depth: 2, parent: outer)
        script.deliver(outer, to: 1, name: "Outer", duration: 500, startedAt: start + 10)
        script.deliver(
            inner, to: 2, name: "Inner", thread: 2, postingThread: 1, duration: 2_000, wait: 7_000,
            target: .dispatchQueue, startedAt: start + 7_100)
        var model = InspectorState()
        model.apply(script.events)
        return (model, outer, inner)
    }

    @Test("The tree reads top down, each run under its post and each nested post under its run")
    func text() throws {
        let (model, outer, inner) = Self.model()
        let text = CascadeReport(try #require(model.cascade(post: outer))).text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(text)")
        #expect(lines[0].hasPrefix("post seq 7 \"Outer\" (post \(outer), depth 1)"))
        #expect(lines[1].hasPrefix("  ran #1 \"Outer\" at App/File.swift:10"))
        #expect(lines[2].hasPrefix("    post seq 8 \"Inner\" (post \(inner), depth 2)"))
        #expect(lines[3].hasPrefix("      ran #2 \"Inner\"") && lines[3].contains("waited 7.0µs, hopped threads"))
        let chain = CascadeReport(try #require(model.postedBy(post: inner, registration: 2))).text
        #expect(chain.hasPrefix("post seq 7 \"Outer\""))
        #expect(chain.contains("\n      ran #2 \"Inner\""))
        #expect(chain.hasSuffix("(the first line is a post made outside any handler)"))
    }

    @Test("The JSON holds the tree: runs with their nested posts, waits and hops")
    func json() throws {
        let (model, outer, _) = Self.model()
        let json = CascadeReport(try #require(model.cascade(post: outer))).json
        #expect(json.hasPrefix("{\"cascade\":{\"deliveries\":[{\"delivery\":{"))
        #expect(json.contains("\"nested\":[{\"deliveries\":[{\"delivery\":{\"duration_ns\":2000,\"hopped\":true"))
        #expect(json.contains("\"wait_ns\":7000"))
        #expect(json.contains("\"posts\":2"))
        #expect(json.contains("\"truncated\":false"))
        #expect(!json.contains("posted_by"))
    }
}
