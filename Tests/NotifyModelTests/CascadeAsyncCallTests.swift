import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

/// An `AsyncMessage` observer's call runs in a task that may resume on another thread at each
/// suspension: a post made inside it is placed under the call that spans it, whatever its thread,
/// and left unplaced (saying why) when several calls of the same post span it.
@Suite("Cascade: posts made inside AsyncMessage calls")
struct CascadeAsyncCallTests {
    /// Observer #8's call of the same post, beside #7's.
    enum SecondCall: Sendable { case none, ended, running }

    /// Message A posted on main; observer #7's call ran from +100 to +5,000 and ended on thread 3;
    /// B was posted inside it on thread 2 at +2,000. With `secondCall`, observer #8's call of A
    /// ran over the same time, ended or still running at the trace's end.
    private func script(secondCall: SecondCall) -> (script: TraceScript, a: UInt64, b: UInt64) {
        var script = TraceScript()
        script.thread(1, name: "main", isMain: true)
        script.thread(2, name: "pool-1")
        script.thread(3, name: "pool-2")
        script.register(7, "A", kind: .asyncMessage, target: .task, site: 107)
        if secondCall != .none { script.register(8, "A", kind: .asyncMessage, target: .task, site: 108) }
        let t = script.time
        let a = script.post("A", matched: secondCall == .none ? 1 : 2, site: 201, message: .async)
        script.advance(2_000)
        let b = script.post("B", matched: 0, thread: 2, site: 202, depth: 2, parent: a)
        script.deliver(
            a, to: 7, name: "A", thread: 3, postingThread: 1, duration: 4_900, wait: 100, depth: 0, target: .task,
            startedAt: t + 100)
        if secondCall == .ended {
            script.deliver(
                a, to: 8, name: "A", thread: 2, postingThread: 1, duration: 5_000, wait: 50, depth: 0, target: .task,
                startedAt: t + 50)
        }
        return (script, a, b)
    }

    @Test("A post made inside the one running call is placed under it, though on another thread")
    func placedUnderTheCall() throws {
        let (script, a, b) = script(secondCall: .none)
        let state = script.fold()
        let cascade = try #require(state.cascade(post: a))
        #expect(cascade.root.deliveries.map(\.delivery.registration) == [7])
        #expect(cascade.root.deliveries[0].nested.map(\.post.postID) == [b])
        #expect(cascade.root.unplaced.isEmpty)
        #expect(cascade.root.notes.isEmpty)
        let chain = try #require(state.postedBy(post: b))
        #expect(chain.reachedRoot)
        #expect(chain.notes.isEmpty)
        let steps = chain.steps.map {
            switch $0 {
            case .post(let post): "post \(post.postID)"
            case .delivery(let delivery): "run #\(delivery.registration)"
            }
        }
        #expect(steps == ["post \(b)", "run #7", "post \(a)"])
    }

    @Test(
        "Another call of the post ended or still running when it was made: unplaced, with the reason",
        arguments: [
            (SecondCall.ended, "several AsyncMessage calls"),
            (SecondCall.running, "not every call of it has ended"),
        ])
    func otherCallsAreNotRuledOut(secondCall: SecondCall, reason: String) throws {
        let (script, a, b) = script(secondCall: secondCall)
        let state = script.fold()
        let cascade = try #require(state.cascade(post: a))
        #expect(cascade.root.deliveries.allSatisfy { $0.nested.isEmpty })
        #expect(cascade.root.unplaced.map(\.post.postID) == [b])
        #expect(cascade.root.notes.contains { $0.contains(reason) })
        let chain = try #require(state.postedBy(post: b))
        #expect(!chain.steps.contains { if case .delivery = $0 { true } else { false } })
        #expect(chain.notes.contains { $0.contains(reason) })
    }
}
