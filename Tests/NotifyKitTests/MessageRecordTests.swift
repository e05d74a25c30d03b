import Foundation
import NotifyKit
import Testing
import NotifyTestSupport

/// A probe without a recorder, to compare what the records say with the events built at once.
private final class ReceivingMessageProbe: NotifyProbe, @unchecked Sendable {
    let events = Recorder<ProbeEvent>()
    func receive(_ event: ProbeEvent) { events.append(event) }
}

/// Typed messages' posts, deliveries and enqueues go through the per-thread records too.
@MainActor
@Suite struct MessageRecordTests {
    @Test("a typed message's post, delivery and enqueue reach a recorder as they reach a receiving probe")
    func messageEventsThroughRecords() async throws {
        let center = NotifyCenter()
        let subject = Subject()
        let receiving = ReceivingMessageProbe()
        let recording = InMemoryProbe()
        let first = center.attach(receiving)
        let second = center.attach(recording)
        defer {
            first.detach()
            second.detach()
        }
        let received = Counter()
        let tapped = center.addObserver(of: subject, for: .tapped) { _ in }
        let synced = center.addObserver(for: Synced.self) { _ in received.increment() }
        defer {
            center.removeObserver(tapped)
            center.removeObserver(synced)
        }
        center.post(Tapped(value: 1), subject: subject)
        center.post(Synced(value: 2))
        #expect(await eventually { received.value == 1 })
        #expect(await eventually { receiving.events.count == recording.events.count && received.value == 1 })
        let described = { (events: [ProbeEvent]) in
            events.filter { if case .registered = $0.kind { false } else { true } }.map { "\($0.thread) \($0.kind)" }
        }
        let recorded = described(recording.events)
        #expect(recorded.sorted() == described(receiving.events.all).sorted())
        #expect(recorded.count == 5)  // two posts, two deliveries, one enqueue
        let messages = recording.events.compactMap { if case .posted(let post) = $0.kind { post.message } else { nil } }
        #expect(messages == [.mainActor, .async])
        let enqueue = try #require(recorded.firstIndex { $0.contains("messageEnqueued") })
        let asyncDelivery = try #require(recorded.lastIndex { $0.contains("delivered") })
        #expect(enqueue < asyncDelivery)
        #expect(recording.droppedCount == 0)
    }
}
