import Foundation
import NotifyKit
import Testing

/// Tokens: idempotent removal, center identity, never-reused ids, `isActive`, dropped tokens.
@Suite struct TokenTests {
    /// One way to end a registration through its token.
    enum Removal: String, CaseIterable, Sendable {
        case cancel, removeObserver, removeObserverWithNameAndObject

        func apply(_ token: NotifyToken, in center: NotifyCenter) {
            switch self {
            case .cancel: token.cancel()
            case .removeObserver: center.removeObserver(token)
            case .removeObserverWithNameAndObject: center.removeObserver(token, name: .testN, object: nil)
            }
        }
    }

    static let removalPairs: [(Removal, Removal)] = Removal.allCases.flatMap { first in
        Removal.allCases.map { (first, $0) }
    }

    @Test(
        "removing through a token twice is idempotent and touches no other registration",
        arguments: removalPairs)
    func removalIsIdempotent(_ first: Removal, _ second: Removal) {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let count = Counter()
            let neighbours = (0..<3).map { _ in
                center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
            }
            let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
            first.apply(token, in: center)
            second.apply(token, in: center)
            #expect(probe.removals.count == 1)
            #expect(center.registrationCount == 3)
            center.post(name: .testN)
            #expect(count.value == 3)
            neighbours.forEach { $0.cancel() }
        }
    }

    @Test(
        "a token from another center is a no-op there, and that center's registrations survive",
        arguments: [Removal.removeObserver, .removeObserverWithNameAndObject])
    func tokenFromAnotherCenterIsIgnored(_ removal: Removal) {
        let first = NotifyCenter(label: "first")
        let second = NotifyCenter(label: "second")
        let firstCount = Counter()
        let secondCount = Counter()
        // Both registrations get the first id of their center: a center-blind token would collide.
        let firstToken = first.addObserver(forName: .testN, object: nil, queue: nil) { _ in firstCount.increment() }
        let secondToken = second.addObserver(forName: .testN, object: nil, queue: nil) { _ in secondCount.increment() }
        #expect(firstToken.registrationID == secondToken.registrationID)

        removal.apply(firstToken, in: second)
        #expect(second.registrationCount == 1)
        #expect(first.registrationCount == 1)
        first.post(name: .testN)
        second.post(name: .testN)
        #expect(firstCount.value == 1)
        #expect(secondCount.value == 1)
        #expect(firstToken.isActive)
        #expect(secondToken.isActive)
        firstToken.cancel()
        secondToken.cancel()
    }

    @Test(
        "a stale token never removes a newer registration for the same name and object",
        arguments: Removal.allCases)
    func staleTokenCannotRemoveNewerRegistration(_ removal: Removal) {
        let center = NotifyCenter()
        let subject = Subject()
        let count = Counter()
        let stale = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        stale.cancel()
        let newer = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
        let newerWithObject = center.addObserver(forName: .testN, object: subject, queue: nil) { _ in count.increment()
        }
        #expect(newer.registrationID != stale.registrationID)
        removal.apply(stale, in: center)
        center.removeObserver(stale)
        center.post(name: .testN, object: subject)
        #expect(count.value == 2)
        #expect(newer.isActive)
        #expect(center.registrationCount == 2)
        newer.cancel()
        newerWithObject.cancel()
    }

    @Test(
        "stale tokens of names nobody observes any more remove nothing once their slots serve new names",
        arguments: Removal.allCases)
    func staleTokensAfterSlotReuse(_ removal: Removal) {
        let center = NotifyCenter()
        // Enough names that their emptied buckets are let go and the slots handed out again.
        let oldNames = (0..<300).map { Notification.Name("slot.old.\($0)") }
        let stale = oldNames.map { center.addObserver(forName: $0, object: nil, queue: nil) { _ in } }
        stale.forEach { $0.cancel() }
        #expect(center.registrationCount == 0)
        let newNames = (0..<300).map { Notification.Name("slot.new.\($0)") }
        let count = Counter()
        let fresh = newNames.map { center.addObserver(forName: $0, object: nil, queue: nil) { _ in count.increment() } }
        for token in stale {
            removal.apply(token, in: center)
            center.removeObserver(token)
        }
        #expect(center.registrationCount == newNames.count)
        newNames.forEach { center.post(name: $0) }
        oldNames.forEach { center.post(name: $0) }
        #expect(count.value == newNames.count)
        #expect(fresh.allSatisfy { $0.isActive })
        // A name observed again after its bucket emptied works as a new one.
        let again = center.addObserver(forName: oldNames[7], object: nil, queue: nil) { _ in count.increment() }
        center.post(name: oldNames[7])
        #expect(count.value == newNames.count + 1)
        (fresh + [again]).forEach { $0.cancel() }
        #expect(center.registrationCount == 0)
    }

    @Test("registration ids are never reused in a center")
    func registrationIDsAreUnique() {
        let center = NotifyCenter()
        var seen = Set<UInt64>()
        for _ in 0..<200 {
            let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
            #expect(seen.insert(token.registrationID).inserted)
            token.cancel()
        }
    }

    @Test("isActive is true while registered and false after the registration ends", arguments: Removal.allCases)
    func isActiveFollowsTheRegistration(_ removal: Removal) {
        let center = NotifyCenter()
        let token = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        #expect(token.isActive)
        removal.apply(token, in: center)
        #expect(!token.isActive)
    }

    @Test("isActive is false once the center is gone")
    func isActiveFalseWithoutCenter() {
        var center: NotifyCenter? = NotifyCenter()
        let token = center!.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        #expect(token.isActive)
        center = nil
        #expect(!token.isActive)
        token.cancel()  // a no-op, and must not crash
    }

    @Test("removeObserver with a non-matching name or object keeps a token's registration")
    func tokenRemovalRespectsNameAndObject() {
        let center = NotifyCenter()
        let a = Subject(1)
        let b = Subject(2)
        let token = center.addObserver(forName: .testN, object: a, queue: nil) { _ in }
        center.removeObserver(token, name: .testM, object: nil)
        center.removeObserver(token, name: nil, object: b)
        #expect(token.isActive)
        center.removeObserver(token, name: .testN, object: a)
        #expect(!token.isActive)

        let unfiltered = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        center.removeObserver(unfiltered, name: nil, object: a)  // Foundation: a non-nil object needs that filter
        #expect(unfiltered.isActive)
        unfiltered.cancel()
    }

    @Test("dropping a block token does not end the registration, and the probe sees tokenDropped")
    func droppedBlockTokenKeepsDelivering() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            let count = Counter()
            _ = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in count.increment() }
            center.post(name: .testN)
            center.post(name: .testN)
            #expect(count.value == 2)
            #expect(center.registrationCount == 1)
            let id = try #require(probe.registrations.first?.id)
            #expect(probe.droppedTokens == [id])
            #expect(probe.removals.isEmpty)
        }
    }

    @Test("a dropped block token's registration still ends with a bulk removal of its observer")
    func droppedTokenEndsWithOwnerRemoval() {
        let center = NotifyCenter()
        let owner = Subject()
        let count = Counter()
        center.observe(.testN, owner: owner) { _, _ in count.increment() }  // token discarded
        center.post(name: .testN)
        center.removeObserver(owner)
        center.post(name: .testN)
        #expect(count.value == 1)
        #expect(center.registrationCount == 0)
    }

    @Test("tokens compare by identity and describe their registration")
    func tokenIdentityAndDescription() {
        let center = NotifyCenter()
        let named = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let wildcard = center.addObserver(forName: nil, object: nil, queue: nil) { _ in }
        #expect(named == named)
        #expect(named != wildcard)
        #expect(Set([named, named, wildcard]).count == 2)
        #expect(named.description == "NotifyToken(#\(named.registrationID), N)")
        #expect(wildcard.description == "NotifyToken(#\(wildcard.registrationID), *)")
        named.cancel()
        wildcard.cancel()
    }
}
