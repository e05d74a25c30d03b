import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

@Suite("Explain: why an observer did or did not run")
struct ExplainTests {
    /// The verdict for registration `id` on the only (or last) explained post of `name`.
    private func verdict(_ state: InspectorState, _ name: String, _ id: UInt64) -> ExplanationVerdict? {
        state.explain(name: name).posts.last?.considered.first { $0.registration == id }
    }

    @Test("A delivered registration is delivered; one filtering on another object is object-differs, with both")
    func deliveredAndObjectDiffers() {
        var script = TraceScript()
        script.register(1, "cartDidChange")
        script.register(2, "cartDidChange", object: 50, site: 101)
        script.object(51, type: "App.Sender")
        let post = script.post("cartDidChange", matched: 1, object: 51)
        script.deliver(post, to: 1, name: "cartDidChange")
        let state = script.fold()
        #expect(verdict(state, "cartDidChange", 1)?.reason == .delivered)
        let missed = verdict(state, "cartDidChange", 2)
        #expect(missed?.reason == .objectDiffers)
        #expect(missed?.delivered == false)
        #expect(missed?.detail.contains("App.Sender #50") == true)
        #expect(missed?.detail.contains("App.Sender #51") == true)
        #expect(missed?.site?.line == 101)
    }

    @Test("A near name's registration is name-differs and names both; a case-only difference says so")
    func nameDiffers() {
        var script = TraceScript()
        script.register(1, "userDidLogin")
        script.register(2, "UserDidLogn")
        script.register(3, "somethingElse")
        script.post("userDidLogn", matched: 0)
        let state = script.fold()
        let typo = verdict(state, "userDidLogn", 1)
        #expect(typo?.reason == .nameDiffers)
        #expect(typo?.detail.contains("\"userDidLogin\"") == true)
        #expect(typo?.detail.contains("\"userDidLogn\"") == true)
        #expect(verdict(state, "userDidLogn", 2)?.detail.contains("only in case") == true)
        #expect(verdict(state, "userDidLogn", 3) == nil)
    }

    @Test("A registration made after the post is registered-after, by how long")
    func registeredAfter() {
        var script = TraceScript()
        script.post("ready", matched: 0)
        script.advance(5 * TraceScript.ms)
        script.register(1, "ready")
        let state = script.fold()
        let late = state.explain(name: "ready", registration: 1).posts.last?.considered.first
        #expect(late?.reason == .registeredAfter)
        #expect(late?.detail.contains("5 ms after") == true)
        #expect(state.explain(name: "ready").posts.last?.registeredLater?.summary.contains("5 ms after") == true)
    }

    @Test("Ended before the post: removed-before, owner-dead, object-dead (with address reuse), token-dropped")
    func endedBefore() {
        var script = TraceScript()
        script.register(1, "tick", site: 101)
        script.register(2, "tick", kind: .ownerBound, observer: 60, site: 102)
        script.object(70, type: "App.Document", address: 0xabc0)
        script.register(3, "tick", object: 70, site: 103)
        script.register(4, "tick", kind: .sequence, site: 104)
        script.register(5, "tick", kind: .target, observer: 61, site: 105)
        script.advance(TraceScript.ms)
        script.remove(1, reason: .explicit, site: 201)
        script.remove(2, reason: .observerDeallocated)
        script.remove(3, reason: .objectDeallocated)
        script.remove(4, reason: .sequenceEnded)
        script.remove(5, reason: .tokenCancelled, site: 205)
        script.advance(2 * TraceScript.ms)
        script.object(71, type: "App.Document", address: 0xabc0)
        script.post("tick", matched: 0, object: 71)
        let state = script.fold()
        #expect(verdict(state, "tick", 1)?.reason == .removedBefore)
        #expect(verdict(state, "tick", 1)?.detail.contains("2 ms before") == true)
        #expect(verdict(state, "tick", 1)?.detail.contains("removeObserver at App/File.swift:201") == true)
        #expect(verdict(state, "tick", 2)?.reason == .ownerDead)
        #expect(verdict(state, "tick", 3)?.reason == .objectDead)
        #expect(verdict(state, "tick", 3)?.detail.contains("took its address") == true)
        #expect(verdict(state, "tick", 4)?.reason == .tokenDropped)
        #expect(verdict(state, "tick", 5)?.reason == .removedBefore)
        #expect(verdict(state, "tick", 5)?.detail.contains("cancel() on its token at App/File.swift:205") == true)
    }

    @Test("An owner found dead by the post itself is owner-dead, though its end is reported after the post")
    func ownerFoundDeadByThePost() {
        var script = TraceScript()
        script.register(1, "appear", kind: .target, observer: 60)
        script.post("appear", matched: 0)
        script.advance(50_000)
        script.remove(1, reason: .observerDeallocated)
        let state = script.fold()
        #expect(verdict(state, "appear", 1)?.reason == .ownerDead)
        #expect(verdict(state, "appear", 1)?.detail.contains("50 µs after the post") == true)
    }

    @Test("Handed to a queue that never ran it, or queued in a mailbox: still-queued; a full buffer: buffer-dropped")
    func queuedAndDropped() {
        var script = TraceScript()
        script.register(1, "work", target: .dispatchQueue)
        script.register(2, "App.Msg", kind: .asyncMessage, target: .task)
        script.register(3, "App.Msg", kind: .messageSequence, target: .task, site: 103)
        let work = script.post("work", matched: 1)
        _ = work
        let first = script.post("App.Msg", matched: 2, message: .async)
        script.enqueue(first, for: 2, pending: 1)
        script.enqueue(first, for: 3, pending: 1)
        let second = script.post("App.Msg", matched: 2, message: .async)
        script.enqueue(second, for: 3, pending: 1, droppedOldest: true)
        let state = script.fold()
        #expect(verdict(state, "work", 1)?.reason == .stillQueued)
        let explanation = state.explain(name: "App.Msg")
        let firstPost = explanation.posts.first { $0.post.postID == first }
        #expect(firstPost?.considered.first { $0.registration == 2 }?.reason == .stillQueued)
        #expect(firstPost?.considered.first { $0.registration == 3 }?.reason == .bufferDropped)
        let secondPost = explanation.posts.first { $0.post.postID == second }
        #expect(secondPost?.considered.first { $0.registration == 3 }?.reason == .stillQueued)
    }

    @Test("A matched registration with no deliver line and no known cause is unknown, naming lost events")
    func unknownSaysWhatIsMissing() {
        var script = TraceScript()
        script.register(1, "sync")
        script.gap(3)
        script.post("sync", matched: 1)
        let state = script.fold()
        #expect(verdict(state, "sync", 1)?.reason == .unknown)
        #expect(verdict(state, "sync", 1)?.detail.contains("3 events were lost") == true)
    }

    @Test("An observer run twice for one post points at the duplicate registration and both sites")
    func duplicate() {
        var script = TraceScript()
        script.register(1, "refresh", kind: .target, observer: 60, site: 101)
        script.register(2, "refresh", kind: .target, observer: 60, site: 102)
        script.register(3, "refresh", kind: .target, observer: 61, site: 103)
        script.postAndDeliver("refresh", to: [1, 2, 3])
        let state = script.fold()
        let first = verdict(state, "refresh", 1)
        #expect(first?.reason == .delivered)
        #expect(first?.detail.contains("#2 at App/File.swift:102") == true)
        #expect(verdict(state, "refresh", 2)?.detail.contains("#1 at App/File.swift:101") == true)
        #expect(verdict(state, "refresh", 3)?.detail.contains("duplicate") == false)
    }

    @Test("Every-name registrations are weighed; in a 1.4 trace a post carries the coalesces of its name before it")
    func wildcardAndCoalesced() {
        let header = TraceHeader(
            version: TraceFormatVersion(major: 1, minor: 4), pid: 1, process: "app", center: "default",
            clockMono: TraceScript.start, clockWall: 0, producer: "test")
        var script = TraceScript(header: header, time: TraceScript.start)
        script.register(1, nil)
        script.coalesce("progress", count: 2)
        script.coalesce("progress", count: 1)
        let post = script.post("progress", matched: 1)
        script.deliver(post, to: 1, name: "progress")
        script.post("progress", matched: 1)
        let posts = script.fold().explain(name: "progress").posts
        #expect(posts.count == 2)
        #expect(posts.first?.coalesced == 3)
        #expect(posts.last?.coalesced == nil)
        #expect(posts.first?.considered.first?.name == "*")
        #expect(posts.first?.considered.first?.reason == .delivered)
    }

    @Test("Asked for a name nobody posted, it explains the near names' posts")
    func nobodyPosted() {
        var script = TraceScript()
        script.register(1, "kNetworkReachabilityChanged")
        script.post("kNetworkReachabilityChange", matched: 0)
        let explanation = script.fold().explain(name: "kNetworkReachabilityChanged")
        #expect(explanation.posts.map(\.post.name) == ["kNetworkReachabilityChange"])
        #expect(explanation.notes.first?.contains("nobody posted") == true)
        #expect(explanation.posts.first?.considered.first?.reason == .nameDiffers)
    }

    @Test("A registration's explanation lists the posts it received and those it missed, with reasons")
    func registrationPosts() throws {
        var script = TraceScript()
        script.post("save", matched: 0)
        script.advance(TraceScript.ms)
        script.register(1, "save")
        script.postAndDeliver("save", to: [1])
        script.remove(1, reason: .explicit)
        script.advance(TraceScript.ms)
        script.post("save", matched: 0)
        let explanation = try #require(script.fold().explain(registration: 1))
        #expect(
            explanation.posts.map { $0.considered.first?.reason } == [.registeredAfter, .delivered, .removedBefore])
    }

    @Test("Deliveries older than the link ring are said to be overwritten, not claimed missed")
    func overwrittenLinks() {
        var script = TraceScript()
        script.register(1, "fan")
        script.register(2, "fan")
        script.register(3, "fan")
        script.postAndDeliver("fan", to: [1, 2, 3])
        var configuration = InspectorConfiguration()
        configuration.explainLinkCapacity = 2
        let post = script.fold(configuration).explain(name: "fan").posts.first
        #expect(post?.considered.first { $0.registration == 1 }?.reason == .unknown)
        #expect(post?.considered.filter(\.delivered).map(\.registration) == [2, 3])
        #expect(post?.notes.first?.contains("overwritten") == true)
    }

    @Test("The same events give the same explanation however they are batched or ticked")
    func batchingDoesNotMatter() {
        var script = TraceScript()
        script.register(1, "a", object: 50)
        script.register(2, "a")
        for _ in 0..<40 {
            script.postAndDeliver("a", to: [2])
            script.advance(TraceScript.ms)
        }
        script.remove(2, reason: .explicit)
        script.post("a", matched: 0)
        let whole = script.fold().explain(name: "a")
        var batched = InspectorState()
        var index = 0
        var size = 1
        while index < script.events.count {
            let end = min(script.events.count, index + size)
            batched.apply(script.events[index..<end])
            if let time = script.events[end - 1].timestamp { batched.tick(now: time) }
            index = end
            size = size % 7 + 1
        }
        #expect(batched.explain(name: "a") == whole)
        // The name's log keeps its last 32 posts.
        #expect(whole.posts.count == 32)
    }
}
