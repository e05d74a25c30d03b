import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

@Suite("Cascade: what a post set off, and who posted it")
struct CascadeTests {
    /// Post A on main: its inline handler #1 posts B (whose handler #2 posts D), its inline handler
    /// #4 posts nothing, and its queue handler #3 runs on worker (5 µs later) and posts E.
    struct TwoThreads {
        var script = TraceScript()
        var a: UInt64 = 0
        var b: UInt64 = 0
        var d: UInt64 = 0
        var e: UInt64 = 0

        init(lastDeliveryMissing: Bool = false) {
            script.thread(1, name: "main", isMain: true)
            script.thread(2, name: "worker")
            for (id, name) in [(1, "A"), (2, "B"), (3, "A"), (4, "A")] {
                script.register(UInt64(id), name, target: id == 3 ? .dispatchQueue : .posting, site: 100 + UInt64(id))
            }
            let t = script.time
            a = script.post("A", matched: 3, site: 201)
            script.advance(100)
            b = script.post("B", matched: 1, site: 202, depth: 2, parent: a)
            script.advance(100)
            d = script.post("D", matched: 0, site: 203, depth: 3, parent: b)
            script.deliver(b, to: 2, name: "B", duration: 190, depth: 2, startedAt: t + 110)
            script.deliver(a, to: 1, name: "A", duration: 990, startedAt: t + 10)
            script.deliver(a, to: 4, name: "A", duration: 500, startedAt: t + 1_000)
            script.advance(5_500)
            e = script.post("E", matched: 0, thread: 2, site: 204, depth: 2, parent: a)
            if !lastDeliveryMissing {
                script.deliver(
                    a, to: 3, name: "A", thread: 2, postingThread: 1, duration: 3_000, wait: 4_500, depth: 1,
                    target: .dispatchQueue, startedAt: t + 6_000)
            }
        }
    }

    @Test("A post's tree: deliveries in order, nested posts under the run that made them, on two threads")
    func treeOnTwoThreads() throws {
        let trace = TwoThreads()
        let state = trace.script.fold()
        let cascade = try #require(state.cascade(post: trace.a))
        let root = cascade.root
        #expect(root.post.name == "A")
        #expect(root.post.site.line == 201)
        #expect(root.deliveries.map(\.delivery.registration) == [1, 4, 3])
        #expect(root.deliveries[0].nested.map(\.post.postID) == [trace.b])
        #expect(root.deliveries[1].nested.isEmpty)
        // B's run of #2 made D.
        let b = root.deliveries[0].nested[0]
        #expect(b.deliveries.map(\.delivery.registration) == [2])
        #expect(b.deliveries[0].nested.map(\.post.postID) == [trace.d])
        #expect(b.deliveries[0].nested[0].post.depth == 3)
        // The queue hop: ran on worker after waiting, and posted E there.
        let hop = root.deliveries[2]
        #expect(hop.delivery.hopped)
        #expect(hop.delivery.wait == 4_500)
        #expect(hop.delivery.duration == 3_000)
        #expect(hop.delivery.threadName.contains("worker"))
        #expect(hop.delivery.site?.line == 103)
        #expect(hop.nested.map(\.post.postID) == [trace.e])
        #expect(root.unplaced.isEmpty)
        #expect(cascade.posts == 4)
        #expect(cascade.deliveries == 4)
        #expect(cascade.notes.isEmpty)
        #expect(root.notes.isEmpty)
    }

    @Test("Posted by climbs from a post through the handler runs to the root, across the hop")
    func postedByChain() throws {
        let trace = TwoThreads()
        let state = trace.script.fold()
        let deep = try #require(state.postedBy(post: trace.d))
        #expect(deep.reachedRoot)
        #expect(deep.notes.isEmpty)
        #expect(steps(deep) == ["post \(trace.d)", "run #2", "post \(trace.b)", "run #1", "post \(trace.a)"])
        let hopped = try #require(state.postedBy(post: trace.e))
        #expect(steps(hopped) == ["post \(trace.e)", "run #3", "post \(trace.a)"])
        // From a delivery: the delivery, then its post and up.
        let fromDelivery = try #require(state.postedBy(post: trace.b, registration: 2))
        #expect(steps(fromDelivery) == ["run #2", "post \(trace.b)", "run #1", "post \(trace.a)"])
        let seq = try #require(
            trace.script.events.compactMap { event -> UInt64? in
                if case .delivered(let delivery) = event, delivery.registration == 2 { return delivery.seq }
                return nil
            }.first)
        #expect(state.postedBy(deliverySeq: seq) == fromDelivery)
        #expect(state.cascadeEvent(seq: seq)?.postID == trace.b)
        #expect(state.cascadeEvent(seq: seq)?.registration == 2)
    }

    @Test("A nested post whose run has not ended is unplaced and says so; posted by does not invent the run")
    func runStillGoing() throws {
        let trace = TwoThreads(lastDeliveryMissing: true)
        let state = trace.script.fold()
        let root = try #require(state.cascade(post: trace.a)).root
        #expect(root.deliveries.map(\.delivery.registration) == [1, 4])
        #expect(root.unplaced.map(\.post.postID) == [trace.e])
        #expect(root.notes.contains { $0.contains("had not ended") })
        #expect(root.notes.contains { $0.contains("3 registrations matched, 2 ran") })
        let chain = try #require(state.postedBy(post: trace.e))
        #expect(steps(chain) == ["post \(trace.e)", "post \(trace.a)"])
        #expect(chain.notes.first?.contains("no kept delivery spans it") == true)
    }

    @Test("Lines that overtake their post (a nested post, a delivery) still join its tree")
    func linesBeforeTheirPost() throws {
        let trace = TwoThreads()
        // Move post A's line after everything that refers to it.
        var events = trace.script.events
        let index = try #require(
            events.firstIndex { if case .posted(let post) = $0 { post.postID == trace.a } else { false } })
        events.append(events.remove(at: index))
        var state = InspectorState()
        state.apply(events)
        let root = try #require(state.cascade(post: trace.a)).root
        #expect(root.deliveries.map(\.delivery.registration) == [1, 4, 3])
        #expect(root.deliveries[0].nested.map(\.post.postID) == [trace.b])
        #expect(root.deliveries[2].nested.map(\.post.postID) == [trace.e])
        #expect(root.notes.isEmpty)
    }

    @Test("A nested post on another thread than its parent's runs is never linked to them")
    func otherThreadNotLinked() throws {
        var script = TraceScript()
        let a = script.post("A", matched: 1)
        script.advance(50)
        let nested = script.post("N", matched: 0, thread: 2, depth: 2, parent: a)
        script.deliver(a, to: 1, name: "A", duration: 500, startedAt: TraceScript.start)
        let state = script.fold()
        let root = try #require(state.cascade(post: a)).root
        #expect(root.deliveries.first?.nested.isEmpty == true)
        #expect(root.unplaced.map(\.post.postID) == [nested])
    }

    @Test("Events lost in a gap: the tree and the chain say so instead of linking")
    func lostEvents() throws {
        var script = TraceScript()
        let a = script.post("A", matched: 1)
        script.advance(50)
        let nested = script.post("N", matched: 0, depth: 2, parent: a)
        script.gap(3)
        let state = script.fold()
        let cascade = try #require(state.cascade(post: a))
        #expect(cascade.root.unplaced.map(\.post.postID) == [nested])
        #expect(cascade.root.notes.contains { $0.contains("lost in gaps") })
        #expect(cascade.notes.contains { $0.contains("3 events were lost") })
    }

    @Test("History pushed out: the tree counts what is gone, the chain stops at the forgotten post")
    func pushedOut() throws {
        var configuration = InspectorConfiguration()
        configuration.explainLinkCapacity = 4
        var script = TraceScript()
        let a = script.post("A", matched: 6)
        for registration in 1...6 { script.deliver(a, to: UInt64(registration), name: "A") }
        let before = script.fold(configuration)
        let root = try #require(before.cascade(post: a)).root
        #expect(root.deliveries.count == 4)
        #expect(root.notes.contains { $0.contains("2 of its 6 deliveries were pushed out") })
        // The parent is pushed out by later posts before its nested post arrives.
        for _ in 0..<4 { script.post("filler", matched: 0) }
        let late = script.post("N", matched: 0, depth: 2, parent: a)
        let after = script.fold(configuration)
        #expect(after.cascade(post: a) == nil)
        let chain = try #require(after.postedBy(post: late))
        #expect(!chain.reachedRoot)
        #expect(steps(chain) == ["post \(late)"])
        #expect(chain.notes.first?.contains("no longer kept (cascades keep the last 4") == true)
    }

    @Test("A parent the stream never carried is said to predate it")
    func beforeTheStream() throws {
        var script = TraceScript()
        let nested = script.post("N", matched: 0, depth: 2, parent: 999)
        let chain = try #require(script.fold().postedBy(post: nested))
        #expect(!chain.reachedRoot)
        #expect(chain.notes.first?.contains("posted before the stream began") == true)
    }

    @Test("Hostile parent ids (a loop, a huge id) end the chain within its limit")
    func hostileParents() throws {
        var script = TraceScript()
        let first = script.post("A", matched: 0, parent: 2)
        script.advance(10)
        let second = script.post("B", matched: 0, parent: first)
        script.post("C", matched: 0, parent: .max)
        let state = script.fold()
        // first names second as its parent, but second came later: not its parent.
        let chain = try #require(state.postedBy(post: second))
        #expect(steps(chain) == ["post \(second)", "post \(first)"])
        #expect(!chain.reachedRoot)
        #expect(state.cascade(post: .max) == nil)
        #expect(state.cascade(post: first, maximumNodes: 1)?.posts == 1)
    }

    @Test("A wide tree stops at its node limit and says so")
    func nodeLimit() throws {
        var script = TraceScript()
        let a = script.post("A", matched: 1)
        for _ in 0..<10 {
            script.advance(10)
            script.post("N", matched: 0, depth: 2, parent: a)
        }
        script.deliver(a, to: 1, name: "A", duration: 1_000, startedAt: TraceScript.start)
        let cascade = try #require(script.fold().cascade(post: a, maximumNodes: 5))
        #expect(cascade.truncated)
        #expect(cascade.posts == 5)
        #expect(cascade.notes.contains("cut at 5 posts"))
        #expect(cascade.root.deliveries.first?.nested.count == 4)
    }

    @Test("The same events give the same cascade and chains however they are batched or ticked")
    func batchingDoesNotMatter() throws {
        let trace = TwoThreads()
        var configuration = InspectorConfiguration()
        configuration.explainLinkCapacity = 4
        var script = trace.script
        for _ in 0..<3 { script.postAndDeliver("A", to: [1, 4]) }
        let whole = script.fold(configuration)
        var stepped = InspectorState(configuration: configuration)
        for event in script.events {
            stepped.apply(event)
            if let time = event.timestamp { stepped.tick(now: time) }
        }
        for post in 1...UInt64(7) {
            #expect(stepped.cascade(post: post) == whole.cascade(post: post))
            #expect(stepped.postedBy(post: post) == whole.postedBy(post: post))
        }
        #expect(whole.cascade(post: trace.a) == nil)
        #expect(whole.cascade(post: 7)?.root.deliveries.count == 2)
    }

    @Test("The cascade's rings stop growing at capacity")
    func footprintBounded() {
        var configuration = InspectorConfiguration()
        configuration.explainLinkCapacity = 64
        var script = TraceScript()
        for _ in 0..<64 { script.postAndDeliver("A", to: [1]) }
        var state = script.fold(configuration)
        let full = state.footprint.estimatedBytes
        var more = TraceScript()
        for _ in 0..<500 { more.postAndDeliver("A", to: [1]) }
        state.apply(more.events)
        #expect(state.footprint.estimatedBytes <= full + 8_192)
        #expect(full > 64 * 2 * 64)
    }

    private func steps(_ chain: PostedByChain) -> [String] {
        chain.steps.map {
            switch $0 {
            case .post(let post): "post \(post.postID)"
            case .delivery(let delivery): "run #\(delivery.registration)"
            }
        }
    }
}
