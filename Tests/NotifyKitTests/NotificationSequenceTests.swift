import Foundation
import NotifyKit
import NotifyTestSupport
import Testing

private let ping = Notification.Name("ping")

private func numbered(_ k: Int) -> [AnyHashable: Any] { ["k": k] }

private func number(of notification: Notification?) -> Int? {
    notification?.userInfo?["k"] as? Int
}

@Suite("notifications(named:)")
struct NotificationSequenceTests {
    @Test("registration starts when iteration starts, so earlier posts are not seen")
    func registersAtMakeAsyncIterator() async {
        let center = NotifyCenter()
        let sequence = center.notifications(named: ping)
        center.post(name: ping, userInfo: numbered(1))
        #expect(center.registrationCount == 0)
        var iterator = sequence.makeAsyncIterator()
        #expect(center.registrationCount == 1)
        center.post(name: ping, userInfo: numbered(2))
        #expect(number(of: await iterator.next(isolation: nil)) == 2)
    }

    @Test("notifications arrive in post order and only for the name and object asked for")
    func filtersAndOrders() async {
        let center = NotifyCenter()
        let sender = NSObject()
        var iterator = center.notifications(named: ping, object: sender).makeAsyncIterator()
        center.post(name: ping, object: NSObject(), userInfo: numbered(0))
        center.post(name: Notification.Name("other"), object: sender, userInfo: numbered(0))
        for k in 1...3 { center.post(name: ping, object: sender, userInfo: numbered(k)) }
        var seen: [Int?] = []
        for _ in 1...3 { seen.append(number(of: await iterator.next(isolation: nil))) }
        #expect(seen == [1, 2, 3])
    }

    @Test("a full buffer drops the oldest notification")
    func bufferDropsOldest() async {
        let center = NotifyCenter()
        var iterator = center.notifications(named: ping, bufferSize: 15).makeAsyncIterator()
        for k in 1...16 { center.post(name: ping, userInfo: numbered(k)) }
        var seen: [Int?] = []
        for _ in 1...15 { seen.append(number(of: await iterator.next(isolation: nil))) }
        #expect(seen == Array(2...16))
    }

    @Test("a waiting iterator is resumed by a post from another thread")
    func resumesWaitingIterator() async {
        let center = NotifyCenter()
        let waiter = Task {
            var iterator = center.notifications(named: ping).makeAsyncIterator()
            return number(of: await iterator.next(isolation: nil))
        }
        // Cancelling ends the wait with nil: an iterator no post resumes fails the test instead of hanging it.
        let deadline = Task {
            try? await Task.sleep(for: .seconds(patience))
            waiter.cancel()
        }
        let poster = Task.detached {
            while !Task.isCancelled {
                if center.registrationCount == 1 { center.post(name: ping, userInfo: numbered(7)) }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(await waiter.value == 7)
        poster.cancel()
        deadline.cancel()
    }

    @Test("posts from several threads at once all reach the consumer, each once, when the buffer holds them")
    func concurrentPostersEachSeenOnce() async {
        let center = NotifyCenter()
        let threads = 4
        let perThread = 250
        var iterator = center.notifications(named: ping, bufferSize: threads * perThread).makeAsyncIterator()
        let posters = (0..<threads).map { thread in
            Task.detached {
                for k in 0..<perThread { center.post(name: ping, userInfo: numbered(thread * perThread + k)) }
            }
        }
        var seen = Set<Int>()
        for _ in 0..<(threads * perThread) {
            if let k = number(of: await iterator.next(isolation: nil)) { seen.insert(k) }
        }
        for poster in posters { await poster.value }
        #expect(seen == Set(0..<(threads * perThread)))
    }

    @Test("the registration ends when the iterator goes away")
    func endsWithIterator() {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        do {
            let iterator = center.notifications(named: ping).makeAsyncIterator()
            #expect(center.registrationCount == 1)
            withExtendedLifetime(iterator) {}
        }
        #expect(center.registrationCount == 0)
        let reasons = probe.events.compactMap { event -> ProbeEvent.RemovalReason? in
            if case .removed(_, let reason, _) = event.kind { return reason }
            return nil
        }
        #expect(reasons == [.sequenceEnded])
        attachment.detach()
    }

    @Test("cancelling the consuming task finishes the sequence and unregisters")
    func cancellationFinishes() async {
        let center = NotifyCenter()
        let consumer = Task {
            var count = 0
            for await _ in center.notifications(named: ping) { count += 1 }
            return count
        }
        #expect(await eventually { center.registrationCount > 0 }, "the consumer never registered")
        center.post(name: ping)
        consumer.cancel()
        let count = await consumer.value
        #expect(count <= 1)
        #expect(center.registrationCount == 0)
    }
}
