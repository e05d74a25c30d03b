import NotifyTestSupport
import NotifyWire
import Testing

@testable import NotifyModel

/// The one post history: its rings wrap, a reference to an entry pushed out is recognised as
/// gone, and the name and parent chains hold across the wrap.
@Suite("Post history")
struct PostHistoryTests {
    @Test("The post ring wraps at its capacity: the newest posts are kept, the older ones are gone")
    func ringWraps() {
        var history = PostHistory(capacity: 4)
        for id in 1...UInt64(10) { history.append(post(id)) }
        #expect(history.posts.count == 4)
        #expect(history.forgotPosts)
        for id in 1...UInt64(6) { #expect(history.postOrdinal(id) == nil, "post \(id) was pushed out") }
        for id in 7...UInt64(10) { #expect(history.postOrdinal(id) == Int(id) - 1) }
    }

    @Test("A link to a post pushed out is not chained to the post that took its place")
    func referenceToPushedOut() throws {
        var history = PostHistory(capacity: 2)
        history.append(post(1))
        #expect(history.delivered(delivery(to: 1)) == 0)
        history.append(post(2))
        history.append(post(3))  // takes post 1's place
        #expect(history.delivered(delivery(to: 1)) == nil)
        let third = try #require(history.post(at: 2))
        #expect(third.postID == 3)
        #expect(history.links(of: third).links.isEmpty)
        #expect(history.links(of: third).complete)
        // The first post's ordinal is recognised as gone, not read as the third's.
        #expect(history.post(at: 0) == nil)
    }

    @Test("A post's links pushed out of the link ring leave it incomplete, never another post's")
    func linksPushedOut() throws {
        var history = PostHistory(capacity: 4)
        history.append(post(1))
        for _ in 0..<3 { _ = history.delivered(delivery(to: 1)) }
        history.append(post(2))
        for _ in 0..<3 { _ = history.delivered(delivery(to: 2)) }
        let first = try #require(history.post(at: 0))
        let (links, complete) = history.deliveries(of: first)
        #expect(links.count == 1)
        #expect(!complete)
        let second = try #require(history.post(at: 1))
        #expect(history.deliveries(of: second).deliveries.count == 3)
        #expect(history.deliveries(of: second).complete)
    }

    @Test("A name's chain runs across the wrap and stops at the first post pushed out")
    func nameChainAcrossWrap() {
        var history = PostHistory(capacity: 4)
        var newestA = -1
        for id in 1...UInt64(9) {
            // Every third post is of name A, the others of B (chained apart).
            if id % 3 == 0 {
                newestA = history.append(post(id, name: "A"), previousOfName: newestA)
            } else {
                history.append(post(id, name: "B"))
            }
        }
        // A's posts are 3, 6 and 9; the ring keeps 6...9.
        let kept = history.posts(ofNameFrom: newestA, limit: 32)
        #expect(kept.map(\.postID) == [6, 9])
        #expect(history.keptCount(ofNameFrom: newestA, limit: 32) == 2)
        #expect(history.posts(ofNameFrom: newestA, limit: 1).map(\.postID) == [9])
    }

    @Test("Parent and child across the wrap: a child whose parent is gone is not chained to its successor")
    func parentChildAcrossWrap() throws {
        var history = PostHistory(capacity: 4)
        history.append(post(1))
        history.append(post(2, parent: 1))
        for id in 3...UInt64(5) { history.append(post(id)) }
        // Post 1 is gone: a late child of it must not hang off the post in its place.
        history.append(post(6, parent: 1))
        let replacement = try #require(history.post(at: 4))
        #expect(replacement.postID == 5)
        #expect(history.children(of: replacement).children.isEmpty)
        // A kept parent keeps its kept children.
        history.append(post(7, parent: 5))
        let parent = try #require(history.post(at: 4))
        let (children, complete) = history.children(of: parent)
        #expect(children.map(\.post.postID) == [7])
        #expect(complete)
    }

    @Test("A rare name after 65,536 newer posts is said to be older than the history, with its last post")
    func rareNameOutlivesTheRing() throws {
        var script = TraceScript()
        script.register(1, "rare")
        script.postAndDeliver("rare", to: [1])
        let capacity = InspectorConfiguration().explainLinkCapacity
        #expect(capacity == 65_536)
        for _ in 0..<capacity { script.post("busy", matched: 0) }
        let state = script.fold()
        let explanation = state.explain(name: "rare")
        #expect(explanation.posts.isEmpty)
        #expect(!explanation.notes.contains { $0.contains("nobody posted") })
        let note = try #require(explanation.notes.first { $0.contains("was last posted") })
        #expect(note.contains("older than the history kept (the last 65536 posts of all names)"))
        #expect(note.contains("its deliveries are no longer kept"))
        // One post fewer, and it is still explained, delivered.
        var kept = TraceScript()
        kept.register(1, "rare")
        kept.postAndDeliver("rare", to: [1])
        for _ in 0..<(capacity - 1) { kept.post("busy", matched: 0) }
        let stillKept = kept.fold().explain(name: "rare")
        #expect(stillKept.posts.count == 1)
        #expect(stillKept.posts.first?.considered.first?.reason == .delivered)
    }

    @Test("A full history stays within the bytes its documentation states: 152 a post, 80 a link, 32 of lookup")
    func fullHistoryBytes() {
        #expect(MemoryLayout<PostHistory.Post>.stride <= 152)
        #expect(MemoryLayout<PostHistory.Link>.stride <= 80)
        var history = PostHistory(capacity: 64)
        for id in 1...UInt64(200) {
            history.append(post(id))
            _ = history.delivered(delivery(to: id))
        }
        #expect(history.posts.count == 64)
        #expect(history.links.count == 64)
        #expect(history.estimatedBytes <= 64 * (152 + 80 + 32))
    }

    private func post(_ id: UInt64, name: String = "A", parent: UInt64 = 0) -> TracePost {
        TracePost(
            seq: id, timestamp: id, thread: 1, postID: id, name: name, object: nil, hasUserInfo: false, matched: 1,
            depth: parent == 0 ? 1 : 2, parentPostID: parent, callsite: 0, message: nil, center: nil)
    }

    private func delivery(to postID: UInt64) -> TraceDelivery {
        TraceDelivery(
            seq: 0, timestamp: 10, thread: 1, postID: postID, registration: 1, name: "A", postingThread: 1,
            target: .posting, start: 5, duration: 5, wait: 0, depth: 1)
    }
}
