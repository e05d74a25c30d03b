import Foundation
import NotifyKit
import Testing
import NotifyTestSupport

/// `messages(of:for:bufferSize:)`: a drop-oldest buffer filled inside `post`.
@Suite struct MessageSequenceTests {
    @Test func observationStartsAtMakeAsyncIteratorAndKeepsPostOrder() async {
        let center = NotifyCenter()
        let sequence = center.messages(for: Synced.self, bufferSize: 100)
        center.post(Synced(value: -1))
        var iterator = sequence.makeAsyncIterator()
        for value in 0..<100 { center.post(Synced(value: value)) }
        var received: [Int] = []
        for _ in 0..<100 { received.append(await iterator.next(isolation: nil)!.value) }
        #expect(received == Array(0..<100))
    }

    @Test func aFullBufferDropsTheOldest() async {
        let center = NotifyCenter()
        var iterator = center.messages(for: Synced.self, bufferSize: 3).makeAsyncIterator()
        for value in 0..<8 { center.post(Synced(value: value)) }
        var received: [Int] = []
        for _ in 0..<3 { received.append(await iterator.next(isolation: nil)!.value) }
        #expect(received == [5, 6, 7])
    }

    @Test func subjectFilteredSequencesMatchByIdentity() async {
        let center = NotifyCenter()
        let subject = Subject(1)
        var iterator = center.messages(of: subject, for: .synced).makeAsyncIterator()
        center.post(Synced(value: 1), subject: Subject(1))
        center.post(Synced(value: 2))
        center.post(Synced(value: 3), subject: subject)
        #expect(await iterator.next(isolation: nil)?.value == 3)
    }

    @Test func aSubjectThatDiedBeforeIterationGivesAnEmptySequence() async {
        let center = NotifyCenter()
        var subject: Subject? = Subject()
        let sequence = center.messages(of: subject!, for: Synced.self)
        subject = nil
        var iterator = sequence.makeAsyncIterator()
        center.post(Synced(value: 1), subject: Subject())
        center.post(Synced(value: 2))
        #expect(await iterator.next(isolation: nil) == nil)
        #expect(center.registrationCount == 0)
    }

    @Test func theIteratorGoingAwayEndsTheRegistration() {
        let center = NotifyCenter()
        let sequence = center.messages(for: Synced.self)
        do {
            let iterator = sequence.makeAsyncIterator()
            #expect(center.registrationCount == 1)
            withExtendedLifetime(iterator) {}
        }
        #expect(center.registrationCount == 0)
    }

    @Test func cancellingTheConsumerEndsTheLoop() async {
        let center = NotifyCenter()
        let started = Flag()
        let consumer = Task {
            var count = 0
            for await _ in center.messages(for: Synced.self) {
                count += 1
                started.set()
            }
            return count
        }
        #expect(await eventually { center.registrationCount == 1 })
        center.post(Synced(value: 0))
        #expect(await eventually { started.isSet })
        consumer.cancel()
        #expect(await consumer.value == 1)
        #expect(center.registrationCount == 0)
    }

    @Test func aLoopStartedInACancelledTaskEndsAtOnce() async {
        let center = NotifyCenter()
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for await _ in center.messages(for: Synced.self) { count += 1 }
            return count
        }
        #expect(await consumer.value == 0)
        #expect(center.registrationCount == 0)
    }

    @Test func aNonPositiveBufferSizeStopsAtTheCall() async {
        await #expect(processExitsWith: .failure) {
            _ = NotifyCenter().messages(for: Synced.self, bufferSize: 0)
        }
    }
}
