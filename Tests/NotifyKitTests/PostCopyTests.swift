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

    @Test("after removals with no copy to sweep, a copied handler is still released when its removal returns")
    func removalsBetweenCopiesReleaseCopiedHandler() {
        let center = NotifyCenter()
        var named: Subject? = Subject(1)
        var everyName: Subject? = Subject(2)
        let weakNamed = WeakRef(named)
        let weakEveryName = WeakRef(everyName)
        let first = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let second = center.addObserver(forName: .testN, object: nil, queue: nil) { [named] _ in named?.touch() }
        let wildcard = center.addObserver(forName: nil, object: nil, queue: nil) { [everyName] _ in
            everyName?.touch()
        }
        named = nil
        everyName = nil
        for _ in 0..<Self.warmPosts { center.post(name: .testN) }
        // Registrations on a name no thread posted: their removals have no copy to sweep.
        for _ in 0..<3 {
            center.addObserver(forName: .testM, object: nil, queue: nil) { _ in }.cancel()
        }
        first.cancel()
        // The copies are made again from the table without `first`, and must be swept again.
        for _ in 0..<Self.warmPosts { center.post(name: .testN) }
        center.addObserver(forName: .testM, object: nil, queue: nil) { _ in }.cancel()
        second.cancel()
        #expect(!weakNamed.isAlive, "a posting thread's copy kept a removed handler alive")
        wildcard.cancel()
        #expect(!weakEveryName.isAlive, "a posting thread's wildcard copy kept a removed handler alive")
    }

    @Test("a probe detached by a handler outlives the probed post it was read for, then is let go of")
    func probeDetachedDuringProbedPost() {
        let center = NotifyCenter()
        let later = Counter()
        var tokens: [NotifyToken] = []
        let weakProbe: WeakRef<InMemoryProbe>
        do {
            let probe = InMemoryProbe()
            weakProbe = WeakRef(probe)
            let attachment = center.attach(probe)
            tokens.append(
                center.addObserver(forName: .testN, object: nil, queue: nil) { note in
                    guard note.userInfo != nil else { return }
                    attachment.detach()
                    // With no probe attached now: must not let go of the probes the outer post uses.
                    center.post(name: .testN)
                })
            tokens.append(center.addObserver(forName: .testN, object: nil, queue: nil) { _ in later.increment() })
            for _ in 0..<Self.warmPosts { center.post(name: .testN) }
            center.post(name: .testN, object: nil, userInfo: ["detach": true])
            // The outer post went on with the probes it read: its later delivery is recorded.
            #expect(probe.deliveries.count == 2 * (Self.warmPosts + 1))
        }
        center.post(name: .testN)
        #expect(later.value == Self.warmPosts + 3)
        #expect(!weakProbe.isAlive, "the posting thread kept a detached probe after its next post")
        tokens.forEach { $0.cancel() }
    }

    @Test("threads posting while probes are attached and detached deliver every post once")
    func probesChangingUnderPostingThreads() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        let posters = 2
        let postsEach = 2_000
        let changes = 200
        #expect(
            finishes {
                concurrently(threads: posters + 1) { index in
                    guard index == posters else {
                        for _ in 0..<postsEach { center.post(name: .testN) }
                        return
                    }
                    for _ in 0..<changes {
                        let attachment = center.attach(InMemoryProbe(capacityPerThread: 1 << 10))
                        center.post(name: .testN)
                        attachment.detach()
                    }
                }
            })
        #expect(count.value == posters * postsEach + changes)
        token.cancel()
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
        // Several posts: the first after a change reads the table, the later ones the new copies.
        for _ in 0..<Self.warmPosts { center.post(name: .testN) }
        #expect(first.value == 2 * Self.warmPosts)
        #expect(second.value == Self.warmPosts)
        #expect(wildcard.value == Self.warmPosts)
        (tokens + later).forEach { $0.cancel() }
        center.post(name: .testN)
        #expect(first.value == 2 * Self.warmPosts)
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

    @Test("a name spelled with fresh storage on every post reaches the observers of the equal name")
    func equalNamesWithFreshStorageMatch() {
        let center = NotifyCenter()
        let count = Counter()
        // Longer than a small string, so each interpolation allocates storage of its own.
        let long = "com.example.notifytop.a-name-longer-than-fifteen-bytes"
        let token = center.addObserver(forName: Notification.Name(long), object: nil, queue: nil) { _ in
            count.increment()
        }
        for round in 0..<(Self.warmPosts + 2) {
            center.post(name: Notification.Name("\(long.prefix(long.count - 1))\(long.last!)"))
            #expect(count.value == round + 1)
        }
        center.post(name: Notification.Name(long + "!"))
        #expect(count.value == Self.warmPosts + 2, "a longer name with the same prefix matched")
        token.cancel()
    }

    @Test("many names posted in turn on one thread each reach only their own observers, before and after a change")
    func manyNamesKeepTheirOwnObservers() {
        let center = NotifyCenter()
        // More names than a stripe remembers, so its copies are also dropped and rebuilt.
        let names = (0..<300).map { Notification.Name("many.\($0)") }
        let counts = names.map { _ in Counter() }
        var tokens = zip(names, counts).map { name, count in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in count.increment() }
        }
        for _ in 0..<Self.warmPosts {
            for name in names { center.post(name: name) }
        }
        #expect(counts.allSatisfy { $0.value == Self.warmPosts })
        // A second observer on every 7th name: the copies must not hide it.
        let extra = Counter()
        for name in names.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in extra.increment() })
        }
        for name in names { center.post(name: name) }
        #expect(counts.allSatisfy { $0.value == Self.warmPosts + 1 })
        #expect(extra.value == (names.count + 6) / 7)
        tokens.forEach { $0.cancel() }
        for name in names { center.post(name: name) }
        #expect(counts.allSatisfy { $0.value == Self.warmPosts + 1 }, "a removed observer was called from a copy")
    }
}
