import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import Testing

/// Where handlers run: operation queues (synchronous) and the asynchronous hand-off targets.
@Suite struct DeliveryTargetTests {
    /// The two spellings of an operation-queue registration.
    enum QueueSpelling: String, CaseIterable, Sendable {
        case queueParameter, deliverOn

        func register(
            _ center: NotifyCenter, _ queue: OperationQueue, _ block: @escaping @Sendable (Notification) -> Void
        ) -> NotifyToken {
            switch self {
            case .queueParameter: center.addObserver(forName: .testN, object: nil, queue: queue, using: block)
            case .deliverOn:
                center.addObserver(forName: .testN, object: nil, deliverOn: .operationQueue(queue), using: block)
            }
        }
    }

    @Test("an operation-queue observer runs on that queue, and post waits for it", arguments: QueueSpelling.allCases)
    func operationQueuePostWaits(_ spelling: QueueSpelling) {
        let center = NotifyCenter()
        let queue = OperationQueue()
        queue.name = "tests.op"
        let ran = Flag()
        let onQueue = Flag()
        let handlerThread = Slot<UInt64>()
        let token = spelling.register(center, queue) { _ in
            usleep(20_000)  // slow: a post that did not wait would return first
            if OperationQueue.current === queue { onQueue.set() }
            handlerThread.value = NotifyThread.current.id
            ran.set()
        }
        center.post(name: .testN)
        #expect(ran.isSet, "post returned before the operation ran")
        #expect(onQueue.isSet, "the handler did not run with OperationQueue.current === the queue")
        #expect(handlerThread.value != NotifyThread.current.id)
        token.cancel()
    }

    @Test(
        "posting from inside an operation on the observer's queue runs the handler inline, without deadlock",
        arguments: QueueSpelling.allCases)
    func operationQueuePostFromSameQueueRunsInline(_ spelling: QueueSpelling) {
        let center = NotifyCenter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1  // waiting for another operation on it would deadlock
        let log = Recorder<String>()
        let posterThread = Slot<UInt64>()
        let handlerThread = Slot<UInt64>()
        let token = spelling.register(center, queue) { _ in
            handlerThread.value = NotifyThread.current.id
            log.append("handler")
        }
        let done = DispatchSemaphore(value: 0)
        queue.addOperation {
            posterThread.value = NotifyThread.current.id
            center.post(name: .testN)
            log.append("post returned")
            done.signal()
        }
        #expect(wait(done), "posting from the observer's own queue deadlocked")
        #expect(log.all == ["handler", "post returned"])
        #expect(handlerThread.value == posterThread.value)
        token.cancel()
    }

    @Test("post waits for its own operation only, not for the rest of the queue")
    func operationQueuePostDoesNotDrainQueue() {
        let center = NotifyCenter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let gate = DispatchSemaphore(value: 0)
        let blockerStarted = DispatchSemaphore(value: 0)
        let blockerFinished = Flag()
        queue.addOperation {
            blockerStarted.signal()
            _ = wait(gate)
            blockerFinished.set()
        }
        #expect(wait(blockerStarted))
        let ran = Flag()
        let token = center.addObserver(forName: .testN, object: nil, queue: queue) { _ in ran.set() }
        let posted = finishes { center.post(name: .testN) }
        #expect(posted, "post waited for an unrelated operation on the queue")
        #expect(ran.isSet)
        #expect(!blockerFinished.isSet)
        gate.signal()
        queue.waitUntilAllOperationsAreFinished()
        token.cancel()
    }

    @Test(
        "an asynchronous target: post returns before the handler runs, and the handler runs on that target",
        arguments: AsyncTargetKind.allCases)
    func asyncTargetHandsOff(_ kind: AsyncTargetKind) {
        let center = NotifyCenter()
        let target = AsyncTarget(kind)
        let postReturned = DispatchSemaphore(value: 0)
        let log = Recorder<String>()
        let handled = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: target.target) { note in
            // Waits for the poster: a synchronous delivery would time out here, not hang.
            log.append(wait(postReturned) ? "after post returned" : "before post returned")
            log.append(target.isCurrent ? "on target" : "not on target")
            log.append(note.name.rawValue)
            handled.signal()
        }
        let poster = NotifyThread.current.id
        center.post(name: .testN)
        postReturned.signal()
        #expect(wait(handled), "the handler never ran")
        #expect(log.all == ["after post returned", "on target", "N"])
        #expect(NotifyThread.current.id == poster)
        token.cancel()
    }

    @Test(
        "an asynchronous target: a registration removed before its hand-off runs is not called",
        arguments: AsyncTargetKind.allCases)
    func asyncTargetSkipsRemovedRegistration(_ kind: AsyncTargetKind) {
        let center = NotifyCenter()
        let target = AsyncTarget(kind)
        let count = Counter()
        let kept = Counter()
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: target.target) { _ in count.increment()
        }
        let other = center.addObserver(forName: .testN, object: nil, deliverOn: target.target) { _ in kept.increment() }
        let gate = target.block()  // the hand-off waits behind this
        center.post(name: .testN)
        token.cancel()
        gate.signal()
        #expect(target.drain())
        #expect(count.value == 0, "a registration removed before its hand-off ran was still called")
        #expect(kept.value == 1)
        other.cancel()
    }

    @Test("an asynchronous target delivers many hand-offs in posting order", arguments: AsyncTargetKind.allCases)
    func asyncTargetKeepsOrder(_ kind: AsyncTargetKind) {
        let center = NotifyCenter()
        let target = AsyncTarget(kind)
        let received = Recorder<Int>()
        let token = center.addObserver(forName: .testN, object: nil, deliverOn: target.target) { note in
            received.append(note.userInfo?["k"] as? Int ?? -1)
        }
        for k in 0..<500 { center.post(name: .testN, object: nil, userInfo: ["k": k]) }
        #expect(eventually { received.count == 500 })
        #expect(received.all == Array(0..<500))
        token.cancel()
    }

    @Test(
        "an owner-bound handler on an asynchronous target receives its owner there",
        arguments: AsyncTargetKind.allCases)
    func ownerBoundOnAsyncTarget(_ kind: AsyncTargetKind) {
        let center = NotifyCenter()
        let target = AsyncTarget(kind)
        let owner = Subject(4)
        let log = Recorder<String>()
        let token = center.observe(.testN, owner: owner, deliverOn: target.target) { owner, _ in
            log.append("\(owner.value) \(target.isCurrent)")
        }
        center.post(name: .testN)
        #expect(eventually { log.count == 1 })
        #expect(log.all == ["4 true"])
        token.cancel()
    }

    @Test(
        "an owner that deallocates before its hand-off runs is not called, and the registration ends",
        arguments: AsyncTargetKind.allCases)
    func ownerDeallocatedBeforeHandOff(_ kind: AsyncTargetKind) {
        let center = NotifyCenter()
        let target = AsyncTarget(kind)
        withProbe(on: center) { probe in
            let count = Counter()
            var owner: Subject? = Subject(1)
            let token = center.observe(.testN, owner: owner!, deliverOn: target.target) { _, _ in count.increment() }
            let gate = target.block()
            center.post(name: .testN)
            owner = nil
            gate.signal()
            #expect(target.drain())
            #expect(count.value == 0)
            #expect(probe.removalReasons(of: token.registrationID) == [.observerDeallocated])
            #expect(center.registrationCount == 0)
        }
    }
}
