import Foundation
import NotifyKit
import NotifyTestSupport
import Testing

/// A post made inside an `AsyncMessage` observer's call names that message's post as its parent,
/// before and after the call suspends (when it may resume on another thread); other posts made
/// meanwhile do not.
@Suite struct AsyncDeliveryParentTests {
    @Test("posts inside an AsyncMessage call, before and after a suspension, name the message's post")
    func postsInsideTheCallNameTheirParent() async throws {
        let center = NotifyCenter()
        try await withProbe(on: center) { probe in
            let gate = AsyncGate()
            let done = Flag()
            let inline = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in center.post(name: .testN) }
            let token = center.addObserver(for: Synced.self) { _ in
                center.post(name: .testM)
                await gate.wait()
                center.post(Saved(value: 1))
                done.set()
            }
            center.post(Synced(value: 1))
            #expect(await eventually { probe.posts.count >= 3 })
            // The call is suspended at the gate: a post made here is nobody's child.
            center.post(name: .testN)
            gate.open()
            #expect(await eventually { done.isSet })
            let posts = probe.posts
            try #require(posts.count == 5)
            let message = posts[0]
            let names = posts.map { $0.name.split(separator: ".").last.map(String.init) ?? "" }
            #expect(names == ["Synced", "M", "N", "N", "Saved"])
            let nested = posts.filter { $0.name == "M" }
            #expect(nested.map(\.parentPostID) == [message.postID])
            #expect(nested.map(\.depth) == [2])
            // The inline handler's post inside it: one level deeper still.
            let inner = posts[2]
            #expect(inner.parentPostID == nested[0].postID)
            #expect(inner.depth == 3)
            let outside = posts[3]
            #expect(outside.parentPostID == 0)
            #expect(outside.depth == 1)
            let afterSuspension = posts[4]
            #expect(afterSuspension.parentPostID == message.postID)
            #expect(afterSuspension.depth == 2)
            withExtendedLifetime((inline, token)) {}
        }
    }
}

extension AsyncDeliveryParentTests {
    @Test("a task the call started posts as nobody's child once the call has returned, while other calls run")
    func spawnedTaskAfterTheCall() async throws {
        let center = NotifyCenter()
        try await withProbe(on: center) { probe in
            let later = AsyncGate()
            let holding = AsyncGate()
            let posted = Flag()
            // A call that keeps running, so posts elsewhere look for a running call.
            let holder = center.addObserver(for: Saved.self) { _ in await holding.wait() }
            let spawner = center.addObserver(for: Synced.self) { _ in
                Task {
                    await later.wait()
                    center.post(name: .testN)
                    posted.set()
                }
            }
            center.post(Saved(value: 1))
            center.post(Synced(value: 1))
            // The spawning call has returned when its delivery is reported.
            let synced = try #require(probe.posts.first { $0.name.hasSuffix("Synced") })
            #expect(await eventually { probe.deliveries.contains { $0.delivery.postID == synced.postID } })
            later.open()
            #expect(await eventually { posted.isSet })
            holding.open()
            let nested = probe.posts.filter { $0.name == "N" }
            try #require(nested.count == 1)
            #expect(nested[0].parentPostID == 0)
            #expect(nested[0].depth == 1)
            withExtendedLifetime((holder, spawner)) {}
        }
    }
}
