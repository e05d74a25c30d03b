import Foundation
import NotifyKit
import Testing

/// The ways a removal is handed its token: typed as a token, as an object, as `Any`; and names
/// whose slots are freed and reused between registrations.
@Suite struct TokenRemovalPathTests {
    /// A value that is not a token: as `AnyObject` it is boxed like an `ObservationToken` is.
    struct NotAToken {}

    @Test("removeObserver given a NotifyToken ends its registration once, and ignores another center's token")
    func tokenTypedAsItself() {
        let center = NotifyCenter()
        let other = NotifyCenter()
        let count = Counter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        let otherToken = other.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.removeObserver(otherToken)
        #expect(other.registrationCount == 1)
        center.removeObserver(token)
        center.removeObserver(token)
        center.post(name: .testN)
        #expect(count.value == 0)
        #expect(center.registrationCount == 0)
        #expect(!token.isActive)
        otherToken.cancel()
    }

    @Test(
        "a token removed from another center, or removed twice, is told to probes with its site; a token whose filter died is not"
    )
    func missedTokenRemovalsAreReported() {
        let center = NotifyCenter()
        let other = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let misplaced = other.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.removeObserver(misplaced)
        #expect(misplaced.isActive)
        let token = center.addObserver(forName: .testM, object: nil, queue: nil) { _ in }
        center.removeObserver(token)
        center.removeObserver(token as AnyObject, name: nil, object: nil)
        var object: NSObject? = NSObject()
        let filtered = center.addObserver(forName: .testM, object: object, queue: nil) { _ in }
        object = nil
        center.post(name: .testM)
        center.removeObserver(filtered)
        let missed = probe.missedRemovals
        #expect(missed.map(\.name) == [Notification.Name.testN.rawValue, nil])
        #expect(missed.allSatisfy { $0.callsite.file.hasSuffix("TokenRemovalPathTests.swift") })
        #expect(Set(missed.map(\.callsite.line)).count == 2)
        misplaced.cancel()
        withExtendedLifetime(filtered) {}
    }

    @Test("a token passed as AnyObject with a name filter ends its registration only when the name matches")
    func tokenAsObjectWithNameFilter() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let object: AnyObject = token
        center.removeObserver(object, name: .testM, object: nil)
        #expect(token.isActive)
        center.removeObserver(object, name: .testN, object: nil)
        #expect(!token.isActive)
    }

    @Test("a boxed value that is not a token removes nothing and leaves the registrations in place")
    func boxedValueIsNotAToken() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.removeObserver(NotAToken() as AnyObject)
        #expect(token.isActive)
        #expect(center.registrationCount == 1)
        token.cancel()
    }

    @Test("a name registered again after its slot was freed and given to another name keeps its own observers")
    func nameAfterSlotReuse() {
        let center = NotifyCenter()
        let first = Notification.Name("slot.first")
        let second = Notification.Name("slot.second")
        let others = (0..<300).map { index in
            center.addObserver(forName: Notification.Name("slot.other.\(index)"), object: nil, queue: nil) { _ in }
        }
        // The last name given a slot, then emptied first: its slot is freed with the others' (enough
        // empty buckets are let go together) and is the next to be reused.
        center.addObserver(forName: first, object: nil, queue: nil) { _ in }.cancel()
        for token in others { token.cancel() }
        let firstCount = Counter()
        let secondCount = Counter()
        let firstToken = center.addObserver(forName: first, object: nil, queue: nil) { _ in firstCount.increment() }
        let secondToken = center.addObserver(forName: second, object: nil, queue: nil) { _ in
            secondCount.increment()
        }
        center.post(name: first)
        #expect(firstCount.value == 1 && secondCount.value == 0)
        center.post(name: second)
        #expect(firstCount.value == 1 && secondCount.value == 1)
        firstToken.cancel()
        center.post(name: second)
        #expect(secondCount.value == 2)
        secondToken.cancel()
        #expect(center.registrationCount == 0)
    }
}
