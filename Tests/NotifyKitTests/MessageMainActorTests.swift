import Foundation
import NotifyKit
import Testing

/// `MainActorMessage`: synchronous delivery inside `post`, subject matching and order.
@MainActor
@Suite struct MessageMainActorTests {
    @Test func observersRunInsidePostOnTheMainActor() {
        let center = NotifyCenter()
        var received: [Int] = []
        let token = center.addObserver(of: MessageSubject.self, for: .tapped) { message in
            MainActor.assertIsolated()
            received.append(message.value)
        }
        center.post(Tapped(value: 7))
        #expect(received == [7])
        center.removeObserver(token)
    }

    @Test func subjectsMatchByIdentityAndNilMatchesAny() {
        let center = NotifyCenter()
        let observed = Subject(1)
        let equalButDistinct = Subject(1)
        var byInstance = 0
        var byType = 0
        var byNil = 0
        let tokens = [
            center.addObserver(of: observed, for: .tapped) { _ in byInstance += 1 },
            center.addObserver(of: MessageSubject.self, for: .tapped) { _ in byType += 1 },
            center.addObserver(for: Tapped.self) { _ in byNil += 1 },
        ]
        center.post(Tapped(value: 0), subject: observed)
        center.post(Tapped(value: 0), subject: equalButDistinct)
        #expect(byInstance == 1)
        #expect(byType == 2)
        #expect(byNil == 2)
        // A post without a subject reaches only observers without a subject filter.
        center.post(Tapped(value: 0))
        #expect(byInstance == 1)
        #expect(byType == 3)
        #expect(byNil == 3)
        withExtendedLifetime(tokens) {}
    }

    @Test func subjectObserversRunBeforeWildcardOnesThenInRegistrationOrder() {
        let center = NotifyCenter()
        let subject = Subject()
        var order: [String] = []
        let tokens = [
            center.addObserver(for: Tapped.self) { _ in order.append("any1") },
            center.addObserver(of: subject, for: .tapped) { _ in order.append("subject1") },
            center.addObserver(of: MessageSubject.self, for: .tapped) { _ in order.append("any2") },
            center.addObserver(of: subject, for: Tapped.self) { _ in order.append("subject2") },
        ]
        center.post(Tapped(value: 0), subject: subject)
        #expect(order == ["subject1", "subject2", "any1", "any2"])
        withExtendedLifetime(tokens) {}
    }

    @Test func differentMessageTypesNeverMeet() {
        let center = NotifyCenter()
        var tapped = 0
        let token = center.addObserver(for: Tapped.self) { _ in tapped += 1 }
        center.post(Scrolled())
        #expect(tapped == 0)
        center.removeObserver(token)
    }

    @Test func anObserverRemovedDuringAPostIsNotCalledAndOneAddedIsNotCalledForIt() {
        let center = NotifyCenter()
        var log: [String] = []
        let second = Later<NotifyCenter.ObservationToken>()
        var added: NotifyCenter.ObservationToken?
        let first = center.addObserver(for: Tapped.self) { message in
            log.append("first\(message.value)")
            guard message.value == 1 else { return }
            center.removeObserver(second.value!)
            added = center.addObserver(for: Tapped.self) { message in log.append("added\(message.value)") }
            center.post(Tapped(value: 2))
        }
        second.value = center.addObserver(for: Tapped.self) { message in log.append("second\(message.value)") }
        center.post(Tapped(value: 1))
        // The nested post is delivered at once, depth first; the removed observer gets nothing.
        #expect(log == ["first1", "first2", "added2"])
        withExtendedLifetime((first, added)) {}
    }

    @Test func aDeadSubjectNeverMatchesAnObjectAtItsAddress() throws {
        let center = NotifyCenter()
        var received = 0
        let registered = registerDeadFilter(
            { subject in center.addObserver(of: subject, for: .tapped) { _ in received += 1 } },
            end: { center.removeObserver($0) })
        let (token, subjects) = try #require(registered, "the allocator did not reuse the address; nothing to check")
        center.post(Tapped(value: 0), subject: subjects.last!)
        #expect(received == 0)
        #expect(center.registrationCount == 0, "the dead subject's registration ends when found")
        withExtendedLifetime(token) {}
    }

    @Test func messagesAndNotificationsNeverReachEachOthersObservers() {
        let center = NotifyCenter()
        let typeName = Notification.Name(String(reflecting: Tapped.self))
        let notifications = Counter()
        let named = center.addObserver(forName: typeName, object: nil, queue: nil) { _ in notifications.increment() }
        let everything = center.addObserver(forName: nil, object: nil, queue: nil) { _ in notifications.increment() }
        var messages = 0
        let token = center.addObserver(for: Tapped.self) { _ in messages += 1 }
        let subject = Subject()
        center.post(Tapped(value: 0))
        center.post(Tapped(value: 0), subject: subject)
        #expect(notifications.value == 0)
        #expect(messages == 2)
        center.post(name: typeName, object: subject)
        #expect(messages == 2)
        #expect(notifications.value == 2)
        withExtendedLifetime((named, everything, token)) {}
    }

    @Test func registrationCountIncludesMessageRegistrations() {
        let center = NotifyCenter()
        let token = center.addObserver(for: Tapped.self) { _ in }
        #expect(center.registrationCount == 1)
        center.removeObserver(token)
        #expect(center.registrationCount == 0)
    }
}
