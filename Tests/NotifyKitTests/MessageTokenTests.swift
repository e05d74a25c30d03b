import Foundation
import NotifyKit
import Testing
import NotifyTestSupport

/// `ObservationToken`: the last copy ends the registration; removal is idempotent and per center;
/// equality never changes.
@MainActor
@Suite struct MessageTokenTests {
    @Test func discardingTheTokenEndsTheRegistrationAtOnce() {
        let center = NotifyCenter()
        var received = 0
        _ = center.addObserver(for: Tapped.self) { _ in received += 1 }
        center.post(Tapped(value: 0))
        #expect(received == 0)
        #expect(center.registrationCount == 0)
    }

    @Test func aCopyKeepsTheRegistrationUntilTheLastCopyGoes() {
        let center = NotifyCenter()
        var received = 0
        var kept: NotifyCenter.ObservationToken?
        do {
            let token = center.addObserver(for: Tapped.self) { _ in received += 1 }
            kept = token
        }
        center.post(Tapped(value: 0))
        #expect(received == 1)
        kept = nil
        center.post(Tapped(value: 0))
        #expect(received == 1)
        #expect(kept == nil)
    }

    @Test func removalIsIdempotentAndATokenOfAnotherCenterIsIgnored() {
        let center = NotifyCenter()
        let other = NotifyCenter()
        var received = 0
        let token = center.addObserver(for: Tapped.self) { _ in received += 1 }
        let otherToken = other.addObserver(for: Tapped.self) { _ in }
        other.removeObserver(token)
        center.removeObserver(otherToken)
        center.post(Tapped(value: 0))
        #expect(received == 1)
        #expect(other.registrationCount == 1)
        center.removeObserver(token)
        center.removeObserver(token)
        center.post(Tapped(value: 0))
        #expect(received == 1)
    }

    @Test func equalityAndHashAreStableAndOnlyCopiesAreEqual() {
        let center = NotifyCenter()
        let other = NotifyCenter()
        let a = center.addObserver(for: Tapped.self) { _ in }
        let b = other.addObserver(for: Tapped.self) { _ in }
        let copy = a
        #expect(a == copy)
        #expect(a != b)
        var set: Set<NotifyCenter.ObservationToken> = [a, b]
        let hash = a.hashValue
        center.removeObserver(a)
        other.removeObserver(b)
        #expect(a.hashValue == hash)
        #expect(a != b)
        #expect(set.contains(a))
        set.insert(copy)
        #expect(set.count == 2)
    }

    @Test func theLegacyRemoveObserverEndsAnObservationToken() {
        let center = NotifyCenter()
        var received = 0
        let token = center.addObserver(for: Tapped.self) { _ in received += 1 }
        let stored: [Any] = [token]
        center.removeObserver(stored[0] as AnyObject)
        center.post(Tapped(value: 0))
        #expect(received == 0)
        #expect(center.registrationCount == 0)
    }

    @Test func anObservationTokenPassedAsAnyEndsItsRegistration() {
        let center = NotifyCenter()
        var received = 0
        let token = center.addObserver(for: Tapped.self) { _ in received += 1 }
        center.removeObserver(token as Any)
        center.post(Tapped(value: 0))
        #expect(received == 0)
        #expect(center.registrationCount == 0)
    }

    @Test func tokensOfTwoTypesRegisteredInTurnEachEndTheirOwnRegistration() {
        let center = NotifyCenter()
        var tapped: [Int] = []
        var scrolled: [Int] = []
        var tokens: [NotifyCenter.ObservationToken] = []
        for index in 0..<3 {
            tokens.append(center.addObserver(for: Tapped.self) { _ in tapped.append(index) })
            tokens.append(center.addObserver(for: Scrolled.self) { _ in scrolled.append(index) })
        }
        center.removeObserver(tokens[2])  // Tapped #1
        center.removeObserver(tokens[5])  // Scrolled #2
        center.post(Tapped(value: 0))
        center.post(Scrolled())
        #expect(tapped == [0, 2])
        #expect(scrolled == [0, 1])
        tokens.removeAll()
        #expect(center.registrationCount == 0)
    }

    @Test func aTokenOutlivingItsCenterEndsNothingWhenRemovedOrReleased() {
        var center: NotifyCenter? = NotifyCenter()
        var token: NotifyCenter.ObservationToken? = center?.addObserver(for: Tapped.self) { _ in }
        let survivor = NotifyCenter()
        let kept = survivor.addObserver(for: Tapped.self) { _ in }
        center = nil
        if let token { survivor.removeObserver(token) }
        token = nil
        #expect(survivor.registrationCount == 1)
        survivor.removeObserver(kept)
        #expect(survivor.registrationCount == 0)
    }

    @Test func identifiersDeclaredAgainstFoundationWorkWithTheCenter() async {
        let center = NotifyCenter()
        let received = Counter()
        let subject = Subject()
        let token = center.addObserver(of: subject, for: .saved) { _ in received.increment() }
        center.post(Saved(value: 1), subject: subject)
        #expect(await eventually { received.value == 1 })
        center.removeObserver(token)
    }
}
