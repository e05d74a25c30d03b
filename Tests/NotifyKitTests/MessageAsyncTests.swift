import Foundation
import NotifyKit
import Synchronization
import Testing
import NotifyTestSupport

/// `AsyncMessage`: `post` enqueues; each observer has a serial mailbox.
@Suite struct MessageAsyncTests {
    @Test func postOnlyEnqueues() async {
        let center = NotifyCenter()
        let gate = AsyncGate()
        let received = Counter()
        let token = center.addObserver(for: Synced.self) { _ in
            await gate.wait()
            received.increment()
        }
        center.post(Synced(value: 1))
        #expect(received.value == 0)
        gate.open()
        #expect(await eventually { received.value == 1 })
        center.removeObserver(token)
    }

    @Test func oneObserverReceivesInPostOrderOneCallAtATime() async {
        let center = NotifyCenter()
        let received = Recorder<Int>()
        let running = Atomic<Int>(0)
        let overlapped = Flag()
        let token = center.addObserver(for: Synced.self) { message in
            if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlapped.set() }
            if message.value % 100 == 0 { await Task.yield() }
            received.append(message.value)
            running.subtract(1, ordering: .acquiringAndReleasing)
        }
        let count = 2_000
        for value in 0..<count { center.post(Synced(value: value)) }
        #expect(await eventually { received.count == count })
        #expect(received.all == Array(0..<count))
        #expect(!overlapped.isSet)
        center.removeObserver(token)
    }

    @Test func differentObserversRunConcurrently() async {
        let center = NotifyCenter()
        let gate = AsyncGate()
        let firstDone = Flag()
        // The first observer waits for the second: a center that ran observers one at a time
        // would never get there.
        let first = center.addObserver(for: Synced.self) { _ in
            await gate.wait()
            firstDone.set()
        }
        let second = center.addObserver(for: Synced.self) { _ in gate.open() }
        center.post(Synced(value: 0))
        #expect(await eventually { firstDone.isSet })
        withExtendedLifetime((first, second)) {}
    }

    @Test func removalDiscardsQueuedMessagesAndARunningCallFinishes() async {
        let center = NotifyCenter()
        let gate = AsyncGate()
        let started = Flag()
        let received = Recorder<Int>()
        let token = center.addObserver(for: Synced.self) { message in
            started.set()
            await gate.wait()
            received.append(message.value)
        }
        center.post(Synced(value: 1))
        #expect(await eventually { started.isSet })
        center.post(Synced(value: 2))
        center.post(Synced(value: 3))
        center.removeObserver(token)
        center.post(Synced(value: 4))
        gate.open()
        #expect(await eventually { received.count == 1 })
        // Give discarded messages every chance to show up wrongly.
        for _ in 0..<20 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(received.all == [1])
    }

    @Test func aCenterGoingAwayDropsQueuedMessagesAndIsNotKeptAliveByObservers() async {
        var center: NotifyCenter? = NotifyCenter()
        weak let weakCenter = center
        let gate = AsyncGate()
        let started = Flag()
        let received = Recorder<Int>()
        let token = center!.addObserver(for: Synced.self) { message in
            started.set()
            await gate.wait()
            received.append(message.value)
        }
        center!.post(Synced(value: 1))
        #expect(await eventually { started.isSet })
        center!.post(Synced(value: 2))
        center = nil
        #expect(weakCenter == nil)
        gate.open()
        #expect(await eventually { received.count == 1 })
        try? await Task.sleep(for: .milliseconds(20))
        #expect(received.all == [1])
        withExtendedLifetime(token) {}
    }

    @Test func subjectFiltersMatchByIdentity() async {
        let center = NotifyCenter()
        let subject = Subject(1)
        let received = Recorder<String>()
        let tokens = [
            center.addObserver(of: subject, for: .synced) { m in received.append("subject\(m.value)") },
            center.addObserver(of: MessageSubject.self, for: .synced) { m in received.append("any\(m.value)") },
        ]
        center.post(Synced(value: 1), subject: Subject(1))
        center.post(Synced(value: 2), subject: subject)
        #expect(await eventually { received.count == 3 })
        #expect(Set(received.all) == ["any1", "subject2", "any2"])
        withExtendedLifetime(tokens) {}
    }

    enum Marker {
        @TaskLocal static var value = false
    }

    @Test func observersDoNotInheritThePostersTaskLocalsOrCancellation() async {
        let center = NotifyCenter()
        let sawMarker = Slot<Bool>()
        let sawCancelled = Slot<Bool>()
        let token = center.addObserver(for: Synced.self) { _ in
            sawMarker.value = Marker.value
            sawCancelled.value = Task.isCancelled
        }
        let poster = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            Marker.$value.withValue(true) { center.post(Synced(value: 0)) }
        }
        await poster.value
        #expect(await eventually { sawCancelled.value != nil })
        #expect(sawMarker.value == false)
        #expect(sawCancelled.value == false)
        center.removeObserver(token)
    }
}
