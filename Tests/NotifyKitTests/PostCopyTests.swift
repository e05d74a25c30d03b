import Foundation
import NotifyKit
import Testing

/// Posting threads keep private copies of the registrations they post to; these pin that the
/// copies never change what a post delivers or how long a handler lives.
@Suite struct PostCopyTests {
    /// Enough posts on one thread that its copies exist (the first post after a change only marks them).
    static let warmPosts = 3

    @Test("a handler removed on one thread is released at once, though another thread's posts copied it")
    func removalReleasesCopiedHandler() {
        let center = NotifyCenter()
        var captured: Subject? = Subject(1)
        let weak = WeakRef(captured)
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { [captured] _ in
            captured?.touch()
            count.increment()
        }
        let wildcardToken = center.addObserver(forName: nil, object: nil, queue: nil) { [captured] _ in
            captured?.touch()
        }
        captured = nil
        #expect(finishes { for _ in 0..<Self.warmPosts { center.post(name: .testN) } })
        #expect(count.value == Self.warmPosts)
        token.cancel()
        #expect(weak.isAlive, "the wildcard still holds the capture")
        wildcardToken.cancel()
        #expect(!weak.isAlive, "a posting thread's copy kept a removed handler alive")
    }

    @Test("an observer added after a thread's posts were copied receives that thread's next post")
    func additionReachesCopyingThread() {
        let center = NotifyCenter()
        let first = Counter()
        let second = Counter()
        let wildcard = Counter()
        let tokens = [center.addObserver(forName: .testN, object: nil, queue: nil) { _ in first.increment() }]
        for _ in 0..<Self.warmPosts { center.post(name: .testN) }
        let later = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in second.increment() },
            center.addObserver(forName: nil, object: nil, queue: nil) { _ in wildcard.increment() },
        ]
        center.post(name: .testN)
        #expect(first.value == Self.warmPosts + 1)
        #expect(second.value == 1)
        #expect(wildcard.value == 1)
        (tokens + later).forEach { $0.cancel() }
        center.post(name: .testN)
        #expect(first.value == Self.warmPosts + 1)
    }

    @Test("a probe attached after posts were copied sees the next post and its delivery")
    func probeAttachedLaterSeesPosts() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        for _ in 0..<Self.warmPosts { center.post(name: .testN) }
        withProbe(on: center) { probe in
            center.post(name: .testN)
            #expect(probe.posts.count == 1)
            #expect(probe.deliveries.count == 1)
        }
        token.cancel()
    }

    @Test("more posting threads than copy stripes, with churn: every post is delivered exactly once")
    func manyThreadsShareStripes() {
        let center = NotifyCenter()
        let threads = 40
        let posts = 300
        let (named, wildcard, stable) = countingTestNObservers(on: center)
        concurrently(threads: threads) { index in
            for round in 0..<posts {
                center.post(name: .testN)
                if index % 4 == 0 && round % 10 == 0 {
                    center.addObserver(forName: round % 20 == 0 ? nil : .testN, object: nil, queue: nil) { _ in }
                        .cancel()
                }
            }
        }
        #expect(named.value == threads * posts)
        #expect(wildcard.value == threads * posts)
        #expect(center.registrationCount == stable.count)
        stable.forEach { $0.cancel() }
    }
}
