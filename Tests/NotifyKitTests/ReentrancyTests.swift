import Foundation
import NotifyKit
import NotifyTestSupport
import Testing

/// What handlers may do to the center while a post is delivering: no lock is held during callouts.
@Suite struct ReentrancyTests {
    @Test("a handler can post, add, remove, count and describe on the same thread without deadlock")
    func reentrantCallsFromHandler() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let other = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in log.append("M") }
        let victim = center.addObserver(forName: .testOther, object: nil, queue: nil) { _ in log.append("other") }
        let added = Later<NotifyToken>()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            center.post(name: .testM)
            added.value = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in log.append("M-late") }
            center.removeObserver(victim)
            log.append("count=\(center.registrationCount)")
            log.append("described=\(center.debugDescription.contains("#1  M"))")
            log.append("active=\(victim.isActive)")
        }
        // On a helper thread, so a lock held during the callout fails the test instead of hanging it.
        guard finishes({ center.post(name: .testN) }) else {
            abandon(center, other, victim, token)  // releasing them would wait on the stuck lock
            Issue.record("post deadlocked: a lock is held while handlers run")
            return
        }
        #expect(log.all == ["M", "count=3", "described=true", "active=false"])
        center.post(name: .testM)
        center.post(name: .testOther)
        #expect(Array(log.all.suffix(2)) == ["M", "M-late"])
        [other, token, added.value].forEach { $0?.cancel() }
    }

    @Test("while a handler runs, another thread can post, add and remove on the same center")
    func otherThreadsAreNotBlockedDuringCallout() {
        let center = NotifyCenter()
        let otherThreadDone = Flag()
        let sawOtherThread = Flag()
        let count = Counter()
        let counted = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in count.increment() }
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            // Wait inside the callout for another thread that needs the center.
            let done = finishes {
                center.post(name: .testM)
                let added = center.addObserver(forName: .testOther, object: nil, queue: nil) { _ in }
                center.removeObserver(added)
                otherThreadDone.set()
            }
            if done { sawOtherThread.set() }
        }
        center.post(name: .testN)
        #expect(sawOtherThread.isSet, "another thread was blocked while a handler ran")
        #expect(eventually { otherThreadDone.isSet })
        #expect(count.value == 1)
        [counted, token].forEach { $0.cancel() }
    }

    @Test("a post made inside a handler is delivered before the outer handler continues")
    func nestedPostOrder() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let tokens = [
            center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
                log.append("N-begin")
                center.post(name: .testM)
                log.append("N-end")
            },
            center.addObserver(forName: .testM, object: nil, queue: nil) { _ in log.append("M") },
        ]
        guard finishes({ center.post(name: .testN) }) else {
            abandon(center, tokens[0], tokens[1])
            Issue.record("a nested post deadlocked")
            return
        }
        #expect(log.all == ["N-begin", "M", "N-end"])
        tokens.forEach { $0.cancel() }
    }

    @Test("an observer added during a post misses that post but receives the next")
    func observerAddedMidPostMissesInFlightPost() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let late = Later<NotifyToken>()
        let adder = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            log.append("adder")
            if late.value == nil {
                late.value = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append("late") }
            }
        }
        center.post(name: .testN)
        #expect(log.all == ["adder"])
        center.post(name: .testN)
        #expect(log.all == ["adder", "adder", "late"])
        [adder, late.value].forEach { $0?.cancel() }
    }

    @Test("a wildcard observer added during a post misses that post too")
    func wildcardAddedMidPostMissesInFlightPost() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let late = Later<NotifyToken>()
        let adder = center.addObserver(forName: nil, object: nil, queue: nil) { note in
            log.append("adder:\(note.name.rawValue)")
            if late.value == nil {
                late.value = center.addObserver(forName: nil, object: nil, queue: nil) { note in
                    log.append("late:\(note.name.rawValue)")
                }
            }
        }
        center.post(name: .testN)
        center.post(name: .testM)
        #expect(log.all == ["adder:N", "adder:M", "late:M"])
        [adder, late.value].forEach { $0?.cancel() }
    }

    /// How the earlier handler ends the later registration.
    enum MidPostRemoval: String, CaseIterable, Sendable {
        case cancelToken, removeToken, removeTarget, removeOwner
    }

    final class Victim: @unchecked Sendable {  // immutable
        let log: Recorder<String>
        init(log: Recorder<String>) { self.log = log }
        func handle(_ note: Notification) { log.append("victim") }
    }

    @Test(
        "an observer removed mid-post by an earlier handler is skipped (unlike Linux Foundation, which still calls it)",
        arguments: MidPostRemoval.allCases)
    func observerRemovedMidPostIsSkipped(_ removal: MidPostRemoval) {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let victim = Victim(log: log)
        let victimToken = Later<NotifyToken>()
        let killer = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            log.append("killer")
            switch removal {
            case .cancelToken: victimToken.value?.cancel()
            case .removeToken: victimToken.value.map { center.removeObserver($0) }
            case .removeTarget, .removeOwner: center.removeObserver(victim)
            }
        }
        switch removal {
        case .cancelToken, .removeToken:
            victimToken.value = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append("victim")
            }
        case .removeTarget:
            center.addObserver(victim, action: Victim.handle, name: .testN, object: nil)
        case .removeOwner:
            victimToken.value = center.observe(.testN, owner: victim) { victim, note in victim.handle(note) }
        }
        center.post(name: .testN)
        #expect(log.all == ["killer"], "the removed observer was still called in the same post")
        center.post(name: .testN)
        #expect(log.all == ["killer", "killer"])
        killer.cancel()
    }

    @Test("a named handler removing a later wildcard registration skips it in the same post")
    func removalAcrossBucketsIsSkipped() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let wildcard = Later<NotifyToken>()
        let killer = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            log.append("killer")
            wildcard.value?.cancel()
        }
        wildcard.value = center.addObserver(forName: nil, object: nil, queue: nil) { _ in log.append("wildcard") }
        center.post(name: .testN)
        #expect(log.all == ["killer"])
        killer.cancel()
    }

    @Test("a handler that removes itself finishes, and later observers of the same post still run")
    func handlerRemovingItself() {
        let center = NotifyCenter()
        let log = Recorder<String>()
        let own = Later<NotifyToken>()
        own.value = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            own.value?.cancel()
            log.append("self-removing")
        }
        let other = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in log.append("other") }
        center.post(name: .testN)
        center.post(name: .testN)
        #expect(log.all == ["self-removing", "other", "other"])
        other.cancel()
    }
}
