import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// What format 1.5 adds to an explanation: the call that ended a registration, when an object
/// filter died and which object took its address, and the enqueues a queue merged into a post;
/// and what an older trace says it lacks.
@Suite("Explain with the removal's site, the filter's death and the queue's merges")
struct ExplainWhyTests {
    private func verdict(_ state: InspectorState, _ name: String, _ id: UInt64) -> ExplanationVerdict? {
        state.explain(name: name).posts.last?.considered.first { $0.registration == id }
    }

    private static func header(minor: Int) -> TraceHeader {
        TraceHeader(
            version: TraceFormatVersion(major: 1, minor: minor), pid: 1, process: "app", center: "default",
            clockMono: TraceScript.start, clockWall: 0, producer: "test")
    }

    @Test("removed-before names the call and its site; token-dropped and owner-dead name none")
    func removalCauses() {
        var script = TraceScript(header: Self.header(minor: 5), time: TraceScript.start)
        script.register(1, "sync", site: 101)
        script.register(2, "sync", site: 102)
        script.register(3, "sync", kind: .sequence, site: 103)
        script.register(4, "sync", kind: .target, observer: 60, site: 104)
        script.advance(TraceScript.ms)
        script.remove(1, reason: .tokenCancelled, site: 201)
        script.remove(2, reason: .explicit, site: 202)
        script.remove(3, reason: .sequenceEnded)
        script.remove(4, reason: .observerDeallocated)
        script.advance(4 * TraceScript.ms)
        script.post("sync", matched: 0)
        let state = script.fold()
        let cancelled = verdict(state, "sync", 1)
        #expect(cancelled?.reason == .removedBefore)
        #expect(
            cancelled?.detail
                == "cancel() on its token at App/File.swift:201 ended it 4 ms before the post, on main (1)")
        #expect(
            verdict(state, "sync", 2)?.detail.hasPrefix("removeObserver at App/File.swift:202 ended it 4 ms") == true)
        let dropped = verdict(state, "sync", 3)
        #expect(dropped?.reason == .tokenDropped)
        #expect(dropped?.detail.contains("no call ended it") == true)
        #expect(verdict(state, "sync", 4)?.reason == .ownerDead)
        #expect(state.explain(name: "sync").notes.isEmpty)
    }

    @Test("a token ended with no cancel() call was released: token-dropped, not removed-before")
    func releasedMessageToken() {
        var script = TraceScript(header: Self.header(minor: 5), time: TraceScript.start)
        script.register(1, "App.Tapped", kind: .mainActorMessage, site: 101)
        script.advance(TraceScript.ms)
        script.remove(1, reason: .tokenCancelled)
        script.post("App.Tapped", matched: 0, message: .mainActor)
        let released = verdict(script.fold(), "App.Tapped", 1)
        #expect(released?.reason == .tokenDropped)
        #expect(released?.detail.contains("released without cancel()") == true)
    }

    @Test("object-dead says when the filter died and which new object took its address, and when")
    func filterDeath() {
        var script = TraceScript(header: Self.header(minor: 5), time: TraceScript.start)
        script.object(70, type: "App.Document", address: 0xabc0)
        script.register(3, "save", object: 70, site: 103)
        script.advance(TraceScript.ms / 2)
        let alive = script.time
        script.advance(TraceScript.ms / 2)
        script.objectDead(3, object: 70, aliveAt: alive)
        script.remove(3, reason: .objectDeallocated)
        script.advance(2 * TraceScript.ms)
        script.object(71, type: "App.Document", address: 0xabc0)
        script.post("save", matched: 0, site: 210, object: 71)
        let dead = verdict(script.fold(), "save", 3)
        #expect(dead?.reason == .objectDead)
        #expect(
            dead?.detail
                == "its object filter App.Document #70 @0xabc0 died between 2.5 ms before the post, when it was last "
                + "seen alive, and 2 ms before it, when it was found dead, which ended it; a new App.Document #71 "
                + "@0xabc0 took its address, posted at App/File.swift:210 2 ms after its filter was found dead")
    }

    @Test("a filter found dead by the post itself is object-dead, with the time it was last seen alive")
    func filterFoundDeadByThePost() {
        var script = TraceScript(header: Self.header(minor: 5), time: TraceScript.start)
        script.object(70, type: "App.Document", address: 0xabc0)
        script.register(3, "save", object: 70)
        script.advance(TraceScript.ms)
        script.object(71, type: "App.Document", address: 0xabc0)
        script.post("save", matched: 0, object: 71)
        script.objectDead(3, object: 70, aliveAt: TraceScript.start)
        script.remove(3, reason: .objectDeallocated)
        let dead = verdict(script.fold(), "save", 3)
        #expect(dead?.reason == .objectDead)
        #expect(dead?.detail.contains("died between 1 ms before the post") == true)
        #expect(dead?.detail.contains("a new App.Document #71 @0xabc0 took its address") == true)
    }

    @Test("a post carries the enqueues merged into it, by site; the queue's coalesce lines are not counted again")
    func merges() {
        var script = TraceScript(header: Self.header(minor: 5), time: TraceScript.start)
        script.register(1, "progress")
        script.coalesce("progress", count: 2)
        let first = script.post("progress", matched: 1)
        script.deliver(first, to: 1, name: "progress")
        script.merge(into: first, count: 2, site: 301, enqueuedAt: TraceScript.start)
        script.merge(into: first, count: 1, site: 302, enqueuedAt: TraceScript.start)
        script.advance(TraceScript.ms)
        script.post("progress", matched: 1)
        let posts = script.fold().explain(name: "progress").posts
        #expect(posts.first?.coalesced == 3)
        #expect(
            posts.first?.coalescedSites.map { "\($0.site):\($0.count)" } == [
                "App/File.swift:301:2", "App/File.swift:302:1",
            ])
        #expect(posts.last?.coalesced == nil)
        #expect(posts.last?.coalescedSites.isEmpty == true)
    }

    @Test("a 1.4 trace explains what it can and its notes name what it lacks")
    func olderTrace() {
        var script = TraceScript(header: Self.header(minor: 4), time: TraceScript.start)
        script.register(1, "sync", site: 101)
        script.advance(TraceScript.ms)
        script.remove(1, reason: .tokenCancelled)
        script.post("sync", matched: 0)
        let state = script.fold()
        let explanation = state.explain(name: "sync")
        #expect(explanation.notes.contains { $0.contains("format 1.4, before 1.5") && $0.contains("site") })
        let removed = verdict(state, "sync", 1)
        #expect(removed?.reason == .removedBefore)
        #expect(removed?.detail.contains("does not carry the call's site") == true)
        #expect(state.explain(registration: 1)?.notes.contains { $0.contains("before 1.5") } == true)
    }
}
