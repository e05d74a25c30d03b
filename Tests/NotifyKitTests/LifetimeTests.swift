import Foundation
import NotifyKit
import Testing

/// What the center keeps alive, and for how long: block captures and owner-bound observers.
@Suite struct LifetimeTests {
    /// Where the registration whose captures are watched sits among the registrations of its bucket.
    enum Position: String, CaseIterable, Sendable {
        /// The only registration of its name.
        case alone
        /// The newest registration of its name.
        case newest
        /// Registered before another observer of the same name, which stays.
        case beforeAnotherOfTheSameName
        /// A wildcard registered before another wildcard, which stays.
        case wildcardBeforeAnotherWildcard
    }

    enum Removal: String, CaseIterable, Sendable {
        case cancel, removeObserver
    }

    static let lifetimeCases: [(Position, Removal)] = Position.allCases.flatMap { position in
        Removal.allCases.map { (position, $0) }
    }

    @Test(
        "a block's captures live while it is registered and are released when it is removed",
        arguments: lifetimeCases)
    func blockCapturesReleasedOnRemoval(_ position: Position, _ removal: Removal) {
        let center = NotifyCenter()
        let name: Notification.Name? = position == .wildcardBeforeAnotherWildcard ? nil : .testN
        var others: [NotifyToken] = []
        if position == .newest {
            others.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in })
        }
        var captured: Subject? = Subject(1)
        let weak = WeakRef(captured)
        let count = Counter()
        let token = center.addObserver(forName: name, object: nil, queue: nil) { [captured] _ in
            captured?.touch()
            count.increment()
        }
        if position == .beforeAnotherOfTheSameName || position == .wildcardBeforeAnotherWildcard {
            others.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in })
        }
        captured = nil
        #expect(weak.isAlive, "released while still registered")
        center.post(name: .testN)
        #expect(count.value == 1)

        switch removal {
        case .cancel: token.cancel()
        case .removeObserver: center.removeObserver(token)
        }
        #expect(!weak.isAlive, "the center kept the removed block (and its captures) alive")
        others.forEach { $0.cancel() }
    }

    @Test("an owner-bound handler ends when its owner deallocates, reported at the next post")
    func ownerBoundEndsWhenOwnerDeallocates() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let count = Counter()
            var owner: Subject? = Subject(1)
            let weak = WeakRef(owner)
            let token = center.observe(.testN, owner: owner!) { _, _ in count.increment() }
            center.post(name: .testN)
            #expect(count.value == 1)
            owner = nil
            #expect(!weak.isAlive, "the center kept the owner alive")
            #expect(probe.removals.isEmpty)
            center.post(name: .testN)
            #expect(count.value == 1)
            #expect(probe.removalReasons(of: token.registrationID) == [.observerDeallocated])
            #expect(center.registrationCount == 0)
            #expect(!token.isActive)
        }
    }

    @Test("an owner-bound handler ends when its token is cancelled, though the owner lives")
    func ownerBoundEndsOnCancel() {
        let center = NotifyCenter()
        withProbe(on: center) { probe in
            let owner = Subject(1)
            let count = Counter()
            let token = center.observe(.testN, owner: owner) { _, _ in count.increment() }
            center.post(name: .testN)
            token.cancel()
            center.post(name: .testN)
            #expect(count.value == 1)
            #expect(probe.removalReasons(of: token.registrationID) == [.tokenCancelled])
            #expect(center.registrationCount == 0)
        }
    }

    @Test("an owner-bound handler receives its owner, and keeps delivering when its token is dropped")
    func ownerBoundReceivesOwner() {
        let center = NotifyCenter()
        let owner = Subject(9)
        let received = Recorder<ObjectIdentifier>()
        center.observe(.testN, owner: owner) { owner, _ in received.append(ObjectIdentifier(owner)) }
        center.post(name: .testN)
        center.post(name: .testN)
        #expect(received.all == [ObjectIdentifier(owner), ObjectIdentifier(owner)])
        center.removeObserver(owner)
    }

    @Test("an owner-bound handler's captures are released when its owner deallocates and a post purges it")
    func ownerBoundCapturesReleasedAfterPurge() {
        let center = NotifyCenter()
        var owner: Subject? = Subject(1)
        var captured: Subject? = Subject(2)
        let weakCaptured = WeakRef(captured)
        center.observe(.testN, owner: owner!) { [captured] _, _ in captured?.touch() }
        captured = nil
        #expect(weakCaptured.isAlive)
        owner = nil
        center.post(name: .testN)
        #expect(!weakCaptured.isAlive)
    }

    @Test("a center with registrations deallocates when released, and releases its blocks")
    func centerReleaseFreesBlocks() {
        var center: NotifyCenter? = NotifyCenter()
        let weakCenter = WeakRef(center)
        var captured: Subject? = Subject(1)
        let weakCaptured = WeakRef(captured)
        let token = center!.addObserver(forName: .testN, object: nil, queue: nil) { [captured] _ in captured?.touch() }
        captured = nil
        center = nil
        #expect(!weakCenter.isAlive, "a token or registration keeps the center alive")
        #expect(!weakCaptured.isAlive)
        #expect(!token.isActive)
    }
}
