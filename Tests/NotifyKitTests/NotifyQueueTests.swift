import Foundation
import NotifyKit
import Synchronization
import Testing

/// Records "name/object/k" strings for every notification a center delivers.
private final class QueueLog: @unchecked Sendable {  // `lock` guards `entries`
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ notification: Notification) {
        let object = (notification.object as? Sender)?.label ?? "-"
        let k = notification.userInfo?["k"] as? Int ?? 0
        lock.withLock { entries.append("\(notification.name.rawValue)/\(object)/\(k)") }
    }

    var all: [String] { lock.withLock { entries } }
}

private final class Sender: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

/// Runs `body` on a new thread with a fresh center whose every delivery is logged and a queue
/// posting to it; the logging registration ends when `body` returns.
private func withLoggingQueue(_ body: @escaping @Sendable (NotifyCenter, QueueLog, NotifyQueue) -> Void) {
    onFreshThread {
        let center = NotifyCenter()
        let log = QueueLog()
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { log.append($0) }
        body(center, log, NotifyQueue(center: center))
        token.cancel()
    }
}

/// Runs `body` on a new thread with a fresh run loop, and waits for it.
private func onFreshThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// Lets the current thread's run loop take a few passes in `mode`.
private func spin(_ mode: RunLoop.Mode = .default, for seconds: TimeInterval = 0.02) {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        _ = RunLoop.current.run(mode: mode, before: Date(timeIntervalSinceNow: 0.005))
    }
}

private let nameN = Notification.Name("N")
private let nameM = Notification.Name("M")

private func note(_ name: Notification.Name, _ sender: Sender?, _ k: Int) -> Notification {
    Notification(name: name, object: sender, userInfo: ["k": k])
}

@Suite("NotifyQueue")
struct NotifyQueueTests {
    private func logging(_ center: NotifyCenter) -> (QueueLog, NotifyToken) {
        let log = QueueLog()
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { log.append($0) }
        return (log, token)
    }

    @Test("the default queue is one per thread and stable on each")
    func defaultQueueIsPerThread() {
        let main = ObjectIdentifier(NotifyQueue.default)
        #expect(ObjectIdentifier(NotifyQueue.default) == main)
        let other = LockedBox<(ObjectIdentifier, ObjectIdentifier)?>(nil)
        onFreshThread {
            other.value = (ObjectIdentifier(NotifyQueue.default), ObjectIdentifier(NotifyQueue.default))
        }
        let (first, second) = other.value!
        #expect(first == second)
        #expect(first != main)
        #expect(NotifyQueue.default.center === NotifyCenter.default)
    }

    @Test(".now posts at once, to the queue's own center, and is never coalesced away")
    func nowPostsImmediately() {
        let center = NotifyCenter()
        let (log, token) = logging(center)
        let queue = NotifyQueue(center: center)
        let a = Sender("a")
        for k in 1...3 { queue.enqueue(note(nameN, a, k), postingStyle: .now) }
        #expect(log.all == ["N/a/1", "N/a/2", "N/a/3"])
        token.cancel()
    }

    @Test(".asap waits for the run loop, then the newest of identical notifications wins")
    func asapWaitsAndCoalesces() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a")
            for k in 1...3 { queue.enqueue(note(nameN, a, k), postingStyle: .asap) }
            #expect(log.all.isEmpty)
            spin()
            #expect(log.all == ["N/a/3"])
        }
    }

    @Test("pending notifications are posted in FIFO order (Linux Foundation posts them LIFO)")
    func flushIsFIFO() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a"), b = Sender("b")
            let notes = [note(nameN, a, 1), note(nameM, a, 2), note(nameN, b, 3), note(nameN, a, 4)]
            for n in notes { queue.enqueue(n, postingStyle: .asap, coalesceMask: [], forModes: nil) }
            spin()
            #expect(log.all == ["N/a/1", "M/a/2", "N/b/3", "N/a/4"])
        }
    }

    @Test("coalescing on name or on sender replaces older matches and moves the newest to the tail")
    func coalescingMasks() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a"), b = Sender("b")
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameM, a, 2), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameN, b, 3), postingStyle: .asap, coalesceMask: .onName, forModes: nil)
            spin()
            #expect(log.all == ["M/a/2", "N/b/3"])

            queue.enqueue(note(nameN, a, 4), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameM, b, 5), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameM, a, 6), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            spin()
            #expect(log.all.suffix(2) == ["M/b/5", "M/a/6"])
        }
    }

    @Test("Foundation's name-or-sender sequence leaves one notification per sender, in FIFO order")
    func nameOrSenderSequence() {
        withLoggingQueue { center, log, queue in
            let o1 = Sender("o1"), o2 = Sender("o2")
            queue.enqueue(note(nameN, o1, 1), postingStyle: .asap, coalesceMask: .onName, forModes: nil)
            queue.enqueue(note(nameN, o2, 2), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            queue.enqueue(note(nameN, o1, 3), postingStyle: .asap, coalesceMask: .onName, forModes: nil)
            queue.enqueue(note(nameN, o2, 4), postingStyle: .asap, coalesceMask: .onName, forModes: nil)
            queue.enqueue(note(nameN, o1, 5), postingStyle: .asap, coalesceMask: .onSender, forModes: nil)
            spin()
            #expect(log.all == ["N/o2/4", "N/o1/5"])
        }
    }

    @Test("coalescing spans the asap and idle lists")
    func coalescingSpansLists() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a")
            queue.enqueue(note(nameN, a, 1), postingStyle: .whenIdle)
            queue.enqueue(note(nameN, a, 2), postingStyle: .asap)
            spin()
            #expect(log.all == ["N/a/2"])
        }
    }

    @Test(".asap is posted before .whenIdle in the same pass (Linux Foundation posts idle first)")
    func asapBeforeIdle() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a")
            queue.enqueue(note(nameN, a, 1), postingStyle: .whenIdle, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameM, a, 2), postingStyle: .asap, coalesceMask: [], forModes: nil)
            #expect(log.all.isEmpty)
            spin()
            #expect(log.all == ["M/a/2", "N/a/1"])
        }
    }

    @Test(".now purges matching pending notifications")
    func nowPurgesPending() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a")
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap)
            queue.enqueue(note(nameN, a, 2), postingStyle: .now)
            #expect(log.all == ["N/a/2"])
            spin()
            #expect(log.all == ["N/a/2"])
        }
    }

    @Test("enqueueing from a handler during a flush is safe and waits for the next flush (Linux Foundation crashes)")
    func reentrantEnqueueGoesToNextFlush() {
        onFreshThread {
            let center = NotifyCenter()
            let probe = InMemoryProbe()
            let attachment = center.attach(probe)
            let (log, token) = logging(center)
            let queue = NotifyQueue(center: center)
            let box = UncheckedBox(queue)
            let a = Sender("a")
            let reenter = center.addObserver(forName: nameN, object: nil, queue: nil) { _ in
                box.value.enqueue(note(nameM, a, 2), postingStyle: .asap)
                box.value.enqueue(note(nameM, a, 3), postingStyle: .whenIdle, coalesceMask: [], forModes: nil)
            }
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap)
            spin()
            #expect(log.all == ["N/a/1", "M/a/2", "M/a/3"])
            let flushes = probe.events.compactMap { event -> Int? in
                if case .queue(let activity) = event.kind, activity.action == .flushed { return activity.count }
                return nil
            }
            #expect(flushes == [1, 1, 1])
            reenter.cancel()
            token.cancel()
            attachment.detach()
        }
    }

    @Test("a notification for a custom mode is posted only when the run loop runs in that mode")
    func customModesAreHonoured() {
        withLoggingQueue { center, log, queue in
            let custom = RunLoop.Mode("NotifyKit.custom")
            let a = Sender("a")
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap, coalesceMask: [], forModes: [custom])
            queue.enqueue(note(nameM, a, 2), postingStyle: .whenIdle, coalesceMask: [], forModes: [custom])
            spin(.default)
            #expect(log.all.isEmpty)
            spin(custom)
            #expect(log.all == ["N/a/1", "M/a/2"])
        }
    }

    @Test(".now inside a running mode posts only when that mode is listed; .common is not expanded")
    func nowRespectsCurrentMode() {
        withLoggingQueue { center, log, queue in
            let box = UncheckedBox(queue)
            let a = Sender("a")
            let timer = Timer(timeInterval: 0.001, repeats: false) { _ in
                let current = RunLoop.current.currentMode!
                box.value.enqueue(note(nameN, a, 1), postingStyle: .now, coalesceMask: [], forModes: [current])
                box.value.enqueue(note(nameN, a, 2), postingStyle: .now)
                box.value.enqueue(note(nameN, a, 3), postingStyle: .now, coalesceMask: [], forModes: [.common])
            }
            RunLoop.current.add(timer, forMode: .default)
            spin(for: 0.05)
            #expect(log.all == ["N/a/1", "N/a/2"])
        }
    }

    @Test("dequeueNotifications removes pending matches by name, and an empty mask removes nothing")
    func dequeueMatching() {
        withLoggingQueue { center, log, queue in
            let a = Sender("a"), b = Sender("b")
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameM, a, 2), postingStyle: .whenIdle, coalesceMask: [], forModes: nil)
            queue.enqueue(note(nameN, b, 3), postingStyle: .asap, coalesceMask: [], forModes: nil)
            queue.dequeueNotifications(matching: note(nameN, a, 0), coalesceMask: [])
            #expect(queue.pendingCount == 3)
            queue.dequeueNotifications(matching: Notification(name: nameN), coalesceMask: .onName)
            #expect(queue.pendingCount == 1)
            spin()
            #expect(log.all == ["M/a/2"])
        }
    }

    @Test("probes see enqueue, coalesce, dequeue and flush with the queue's id and pending count")
    func queueActivityIsReported() {
        onFreshThread {
            let center = NotifyCenter()
            let probe = InMemoryProbe()
            let attachment = center.attach(probe)
            let queue = NotifyQueue(center: center)
            let a = Sender("a")
            queue.enqueue(note(nameN, a, 1), postingStyle: .asap)
            queue.enqueue(note(nameN, a, 2), postingStyle: .asap)
            queue.enqueue(note(nameM, a, 3), postingStyle: .whenIdle)
            queue.dequeueNotifications(matching: note(nameM, a, 0), coalesceMask: .onName)
            spin()
            let activity = probe.events.compactMap { event -> String? in
                guard case .queue(let q) = event.kind else { return nil }
                #expect(q.queueID == queue.id)
                return "\(q.action.rawValue):\(q.name ?? "-"):\(q.style ?? "-"):\(q.count):\(q.pending)"
            }
            #expect(
                activity == [
                    "enqueued:N:asap:1:1", "coalesced:N:-:1:0", "enqueued:N:asap:1:1", "enqueued:M:idle:1:2",
                    "dequeued:M:-:1:1", "flushed:-:asap:1:0",
                ])
            attachment.detach()
        }
    }
}

/// A value shared with closures that run on the same thread as the test body.
final class UncheckedBox<Value>: @unchecked Sendable {  // used on one thread only
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A value written on one thread and read after a semaphore on another.
final class LockedBox<Value>: @unchecked Sendable {  // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
