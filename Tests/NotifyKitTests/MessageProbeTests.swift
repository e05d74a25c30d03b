import Foundation
import NotifyKit
import Testing
import NotifyTestSupport

/// The probe events, snapshot and description of typed message registrations.
@MainActor
@Suite struct MessageProbeTests {
    @Test func mainActorMessagesReportRegistrationPostDeliveryAndRemoval() throws {
        let center = NotifyCenter()
        let subject = Subject()
        try withProbe(on: center) { probe in
            let line = #line + 1
            let token = center.addObserver(of: subject, for: .tapped) { _ in }
            let registration = try #require(probe.registrations.first)
            #expect(registration.kind == .mainActorMessage)
            #expect(registration.name == String(reflecting: Tapped.self))
            #expect(registration.object?.address == address(of: subject))
            #expect(registration.target == .posting)
            #expect(registration.callsite.line == UInt(line))
            #expect(registration.callsite.file == currentFileID())
            #expect(!registration.preexisting)

            center.post(Tapped(value: 0), subject: subject)
            let post = try #require(probe.posts.first)
            #expect(post.message == .mainActor)
            #expect(post.name == String(reflecting: Tapped.self))
            #expect(post.matched == 1)
            #expect(post.object?.address == address(of: subject))
            let delivery = try #require(probe.deliveries.first)
            #expect(delivery.delivery.postID == post.postID)
            #expect(delivery.delivery.registration == registration.id)
            #expect(delivery.delivery.target == .posting)

            center.removeObserver(token)
            #expect(probe.removalReasons(of: registration.id) == [.explicit])
        }
    }

    @Test func aDroppedTokenIsReportedAsTokenCancelled() throws {
        let center = NotifyCenter()
        try withProbe(on: center) { probe in
            _ = center.addObserver(for: Tapped.self) { _ in }
            let registration = try #require(probe.registrations.first)
            #expect(probe.removalReasons(of: registration.id) == [.tokenCancelled])
        }
    }

    @Test func asyncMessagesReportEachEnqueueBeforeItsDelivery() async throws {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let received = Counter()
        let token = center.addObserver(for: Synced.self) { _ in received.increment() }
        let registration = try #require(probe.registrations.first)
        #expect(registration.kind == .asyncMessage)
        #expect(registration.target == .task)
        center.post(Synced(value: 1))
        center.post(Synced(value: 2))
        #expect(await eventually { received.value == 2 })
        #expect(await eventually { probe.deliveries.count == 2 })
        let posts = probe.posts
        #expect(posts.map(\.message) == [.async, .async])
        var enqueued: Set<UInt64> = []
        for event in probe.events {
            switch event.kind {
            case .messageEnqueued(let enqueue):
                #expect(enqueue.registration == registration.id)
                #expect(enqueue.pending >= 1)
                #expect(!enqueue.droppedOldest)
                enqueued.insert(enqueue.postID)
            case .delivered(let delivery):
                #expect(enqueued.contains(delivery.postID), "a delivery follows its enqueue")
                #expect(delivery.target == .task)
                #expect(delivery.registration == registration.id)
            default: break
            }
        }
        #expect(enqueued == Set(posts.map(\.postID)))
        center.removeObserver(token)
    }

    @Test func sequencesReportEnqueuesWithDroppedOldestAndTheirEnd() async throws {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        do {
            let iterator = center.messages(for: Synced.self, bufferSize: 2).makeAsyncIterator()
            for value in 0..<3 { center.post(Synced(value: value)) }
            withExtendedLifetime(iterator) {}
        }
        let registration = try #require(probe.registrations.first)
        #expect(registration.kind == .messageSequence)
        #expect(registration.target == .task)
        let enqueues = probe.events.compactMap { event -> ProbeEvent.MessageEnqueue? in
            if case .messageEnqueued(let enqueue) = event.kind { enqueue } else { nil }
        }
        #expect(enqueues.map(\.pending) == [1, 2, 2])
        #expect(enqueues.map(\.droppedOldest) == [false, false, true])
        #expect(probe.removalReasons(of: registration.id) == [.sequenceEnded])
    }

    @Test func aSequenceReportsADeliveryWhenItsConsumerTakesAMessageAndNoneForADroppedOne() async throws {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        var iterator = center.messages(for: Synced.self, bufferSize: 2).makeAsyncIterator()
        for value in 0..<5 { center.post(Synced(value: value)) }
        #expect(probe.deliveries.isEmpty, "nothing is delivered before the consumer reads")
        let first = await iterator.next(isolation: nil)
        let second = await iterator.next(isolation: nil)
        #expect([first?.value, second?.value] == [3, 4])
        let posts = probe.posts.map(\.postID)
        let deliveries = probe.deliveries.map(\.delivery)
        #expect(deliveries.map(\.postID) == Array(posts.suffix(2)), "the three dropped posts have no delivery")
        #expect(deliveries.allSatisfy { $0.target == .task && $0.duration == 0 })
        withExtendedLifetime(iterator) {}
    }

    @Test func aLateProbeSeesLiveMessageRegistrationsInItsSnapshot() {
        let center = NotifyCenter()
        let subject = Subject()
        let legacy = center.addObserver(forName: .testN, object: nil, queue: nil) { _ in }
        let main = center.addObserver(of: subject, for: .tapped) { _ in }
        let async = center.addObserver(for: Synced.self) { _ in }
        let iterator = center.messages(for: Synced.self).makeAsyncIterator()
        withProbe(on: center) { probe in
            let snapshot = probe.registrations
            #expect(snapshot.count == 4)
            #expect(snapshot.filter(\.preexisting).count == 4)
            #expect(snapshot.map(\.kind) == [.block, .mainActorMessage, .asyncMessage, .messageSequence])
            #expect(snapshot[1].object?.address == address(of: subject))
        }
        withExtendedLifetime((legacy, main, async, iterator)) {}
    }

    @Test func debugDescriptionListsMessageRegistrations() {
        let center = NotifyCenter(label: "messages")
        let subject = Subject()
        let main = center.addObserver(of: subject, for: .tapped) { _ in }
        let async = center.addObserver(for: Synced.self) { _ in }
        let lines = center.debugDescription.split(separator: "\n").map(String.init)
        #expect(lines.first == "<NotifyCenter \"messages\": 2 registrations>")
        #expect(lines.count == 3)
        #expect(lines[1].contains(String(reflecting: Tapped.self)))
        #expect(lines[1].contains("subject: \(String(reflecting: Subject.self))@0x"))
        #expect(lines[1].contains("message-main"))
        #expect(lines[2].contains(String(reflecting: Synced.self)))
        #expect(lines[2].contains("subject: *"))
        #expect(lines[2].contains("message-async"))
        withExtendedLifetime((main, async)) {}
    }

    @Test func withNoProbeNothingIsReported() {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        center.attach(probe).detach()
        let token = center.addObserver(for: Tapped.self) { _ in }
        center.post(Tapped(value: 0))
        center.removeObserver(token)
        #expect(probe.events.isEmpty)
    }
}
