import Foundation
import NotifyKit
import Synchronization
import Testing

/// Many threads posting, adding and removing at once: exact counts, and a table that returns to
/// where it started.
@Suite(.serialized) struct ConcurrencyStressTests {
    @Test("8 posting threads while 2 threads churn other observers: stable observers get every post exactly once")
    func exactDeliveriesUnderChurn() {
        let center = NotifyCenter()
        let posters = 8
        let postsPerThread = 20_000
        let (named, wildcard, stable) = countingTestNObservers(on: center)
        let stop = Atomic<Bool>(false)
        let churned = Counter()
        let postersDone = Counter()
        concurrently(threads: posters + 2) { index in
            if index < posters {
                for _ in 0..<postsPerThread { center.post(name: .testN) }
                postersDone.increment()
                if postersDone.value == posters { stop.store(true, ordering: .releasing) }
                return
            }
            // Churn: add and remove observers of other names, of the same name and wildcards,
            // removing from the middle of buckets as well as the end.
            let subject = Subject(index)
            var held: [NotifyToken] = []
            var round = 0
            while !stop.load(ordering: .acquiring) {
                let name: Notification.Name? =
                    switch round % 4 {
                    case 0: .testOther
                    case 1: .testN
                    case 2: nil
                    default: Notification.Name("churn-\(round % 16)")
                    }
                held.append(
                    center.addObserver(forName: name, object: round % 3 == 0 ? subject : nil, queue: nil) { _ in })
                if held.count > 8 { held.remove(at: round % held.count).cancel() }
                round += 1
                churned.increment()
            }
            held.forEach { $0.cancel() }
        }
        #expect(named.value == posters * postsPerThread)
        #expect(wildcard.value == posters * postsPerThread)
        #expect(churned.value > 0)
        #expect(center.registrationCount == stable.count)
        stable.forEach { $0.cancel() }
    }

    @Test("threads adding, posting to and removing their own observers leave registrationCount where it began")
    func registrationCountReturnsToStart() {
        let center = NotifyCenter()
        let baseline = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in },
            center.addObserver(forName: nil, object: nil, queue: nil) { _ in },
        ]
        let start = center.registrationCount
        let threads = 4
        let rounds = 5_000
        let missed = Counter()
        let extra = Counter()
        let shared = Notification.Name("shared")
        concurrently(threads: threads) { index in
            let own = Notification.Name("own-\(index)")
            let owner = Subject(index)
            let delivered = Counter()
            for round in 0..<rounds {
                let before = delivered.value
                switch round % 3 {
                case 0:
                    let token = center.addObserver(forName: own, object: nil, queue: nil) { _ in delivered.increment() }
                    let sharedToken = center.addObserver(forName: shared, object: nil, queue: nil) { _ in }
                    center.post(name: own)
                    center.post(name: shared)
                    token.cancel()
                    center.removeObserver(sharedToken)
                case 1:
                    center.observe(own, owner: owner) { _, _ in delivered.increment() }
                    center.post(name: own)
                    center.removeObserver(owner)
                default:
                    center.addObserver(owner, action: Subject.receive, name: shared, object: nil)
                    let token = center.observe(own, object: owner, owner: owner) { _, _ in delivered.increment() }
                    center.post(name: own, object: owner)
                    token.cancel()
                    center.removeObserver(owner, name: shared, object: nil)
                }
                // Exactly one own observer was registered for exactly one own post.
                let got = delivered.value - before
                if got < 1 { missed.increment() }
                if got > 1 { extra.increment() }
                center.post(name: own)  // nothing of this thread is registered any more
                if delivered.value != before + got { extra.increment() }
            }
        }
        #expect(missed.value == 0, "a thread's own observer missed its own post")
        #expect(extra.value == 0, "a removed observer was called, or one was called twice")
        #expect(center.registrationCount == start)
        baseline.forEach { $0.cancel() }
        #expect(center.registrationCount == 0)
    }

    @Test("a probe attached while threads post sees every post and matching deliveries")
    func probeUnderConcurrentPosting() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        withProbe(on: center) { probe in
            concurrently(threads: 4) { _ in
                for _ in 0..<2_000 { center.post(name: .testN) }
            }
            let posts = probe.posts
            #expect(posts.count == 8_000)
            #expect(Set(posts.map(\.postID)).count == 8_000, "post ids must be unique")
            #expect(Set(probe.deliveries.map(\.delivery.postID)) == Set(posts.map(\.postID)))
            #expect(count.value == 8_000)
        }
        token.cancel()
    }

    /// Sets its flag when it deinitialises.
    final class DyingOwner: Sendable {
        let dead = Flag()
        deinit { dead.set() }
    }

    @Test("owners deallocating on other threads while posts run never deliver to a dead owner")
    func ownersDyingDuringPosts() {
        let center = NotifyCenter()
        let deliveredAfterDeath = Counter()
        let delivered = Counter()
        let churnersDone = Counter()
        let churners = 2
        concurrently(threads: churners + 1) { index in
            if index == 0 {
                while churnersDone.value < churners { center.post(name: .testN) }
                return
            }
            // A few owners live at a time; each round one more is born and the oldest dies.
            var owners: [DyingOwner] = []
            for _ in 0..<1_000 {
                let owner = DyingOwner()
                center.observe(.testN, owner: owner) { owner, _ in
                    if owner.dead.isSet { deliveredAfterDeath.increment() }
                    delivered.increment()
                }
                owners.append(owner)
                if owners.count > 4 { owners.removeFirst() }
                usleep(10)  // let posts overlap live owners, not only dead ones
            }
            owners.removeAll()
            churnersDone.increment()
        }
        center.post(name: .testN)  // purges what is left
        #expect(deliveredAfterDeath.value == 0)
        #expect(delivered.value > 0, "no post overlapped a live owner; the test proves nothing")
        #expect(center.registrationCount == 0)
    }
}
