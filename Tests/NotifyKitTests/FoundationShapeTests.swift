import Foundation
import NotifyKit
import Testing

/// The shapes Foundation's API has, so that code written for `NotificationCenter` and
/// `NotificationQueue` ports by renaming the types: tokens as `NSObjectProtocol`, `Any`
/// observers, `NotifyQueue(notificationCenter:)`, and centers and queues compared by identity.
@Suite struct FoundationShapeTests {
    @Test("a token kept as NSObjectProtocol? still removes its registration, passed as it is or cast to NSObject")
    func tokenAsNSObjectProtocol() throws {
        let center = NotifyCenter()
        let count = Counter()
        var first: (any NSObjectProtocol)? = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            count.increment()
        }
        let second: any NSObjectProtocol = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in
            count.increment()
        }
        let asObject = try #require(second as? NSObject, "a token is not an NSObject")
        center.removeObserver(asObject)
        center.removeObserver(first as Any)
        first = nil
        center.post(name: .testN)
        #expect(count.value == 0)
        #expect(center.registrationCount == 0)
    }

    @Test("an optional token passed as Any ends its registration; a nil one removes nothing")
    func optionalTokenAsAny() {
        let center = NotifyCenter()
        let token: (any NSObjectProtocol)? = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let kept = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let none: (any NSObjectProtocol)? = nil
        center.removeObserver(none as Any)
        #expect(center.registrationCount == 2)
        center.removeObserver(token as Any, name: .testN, object: nil)
        #expect(center.registrationCount == 1)
        #expect(kept.isActive)
        kept.cancel()
    }

    @Test("a token keeps cancel() and isActive when it comes back from the NSObjectProtocol it was stored as")
    func tokenKeepsItsAPI() throws {
        let center = NotifyCenter()
        let stored: any NSObjectProtocol = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let token = try #require(stored as? NotifyToken)
        #expect(token.isActive)
        token.cancel()
        #expect(!token.isActive)
        #expect(center.registrationCount == 0)
    }

    @Test("tokens are equal and hash equal only to themselves, through isEqual, == and Set")
    func tokenIdentity() {
        let center = NotifyCenter()
        let a = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let b = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        #expect(a.isEqual(a))
        #expect(!a.isEqual(b))
        #expect(!a.isEqual(nil))
        #expect(a == a)
        #expect(a != b)
        let asProtocol: any NSObjectProtocol = a
        #expect(asProtocol.isEqual(a))
        #expect(a.hash == a.hash)
        #expect(Set([a, b, a]).count == 2)
        a.cancel()
        b.cancel()
    }

    @Test("a token is Sendable: it can be cancelled from another thread")
    func tokenIsSendable() async {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        await Task.detached { token.cancel() }.value
        #expect(center.registrationCount == 0)
    }

    @Test("NotifyQueue(notificationCenter:) posts to that center, like init(center:)")
    func queueNotificationCenterInit() {
        let center = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        let queue = NotifyQueue(notificationCenter: center)
        #expect(queue.center === center)
        queue.enqueue(Notification(name: .testN), postingStyle: .now)
        #expect(count.value == 1)
        token.cancel()
    }

    @Test("queues are Equatable and Hashable by identity: one default queue per thread")
    func queueIdentity() {
        let center = NotifyCenter()
        let a = NotifyQueue(center: center)
        let b = NotifyQueue(center: center)
        #expect(a == a)
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        #expect(NotifyQueue.default == NotifyQueue.default)
        nonisolated(unsafe) let here = NotifyQueue.default
        let stableThere = LockedBox(false)
        let differsThere = LockedBox(false)
        let done = DispatchSemaphore(value: 0)
        Thread {
            stableThere.value = NotifyQueue.default == NotifyQueue.default
            differsThere.value = NotifyQueue.default != here
            done.signal()
        }.start()
        done.wait()
        #expect(stableThere.value)
        #expect(differsThere.value)
    }

    @Test("centers are Equatable and Hashable by identity")
    func centerIdentity() {
        let a = NotifyCenter(label: "same")
        let b = NotifyCenter(label: "same")
        #expect(a == a)
        #expect(a != b)
        #expect(NotifyCenter.default == NotifyCenter.default)
        #expect(Set([a, b, a]).count == 2)
    }
}
