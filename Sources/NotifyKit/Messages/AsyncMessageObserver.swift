import Foundation
import Synchronization
import NotifySystem

/// Where an unwatched message's delivery counts: the center (weakly: queued messages do not keep
/// it alive) and the type's counter index.
struct UnwatchedDelivery: Sendable {
    weak let center: NotifyCenter?
    let counterIndex: UInt32
}

/// An `AsyncMessage` observer and its mailbox: an O(1) FIFO drained by one task at a time, started
/// when the mailbox becomes non-empty. Calls happen in post order and never overlap; different
/// observers run concurrently.
final class AsyncMessageObserver<Message: NotifyCenter.AsyncMessage>: MessageRegistration, @unchecked Sendable {
    // `mailbox` and `draining` are guarded by `lock`.
    private struct Letter {
        let message: Message
        let trace: MessageHandOffTrace?
        let counted: UnwatchedDelivery?
    }

    let handler: @Sendable (Message) async -> Void
    private let lock = Lock()
    @exclusivity(unchecked) private var mailbox = MessageFIFO<Letter>()
    @exclusivity(unchecked) private var draining = false
    /// Messages the drain has taken from the mailbox and not yet started: still pending.
    private let taken = Atomic<Int>(0)

    init(
        id: UInt64, subject: AnyObject?, handler: @escaping @Sendable (Message) async -> Void,
        file: StaticString, line: UInt
    ) {
        self.handler = handler
        super.init(id: id, messageType: Message.self, subject: subject, kind: .asyncMessage, file: file, line: line)
    }

    /// Queues `message`; returns how many wait, this one included (0: the observer has ended).
    @discardableResult
    func enqueue(_ message: Message, trace post: MessagePostTrace?, counted: UnwatchedDelivery? = nil) -> Int {
        let trace = post?.handOff(to: self)
        lock.lock()
        guard isActive.load(ordering: .relaxed) else {
            lock.unlock()
            return 0
        }
        mailbox.append(Letter(message: message, trace: trace, counted: counted))
        let pending = mailbox.count + taken.load(ordering: .relaxed)
        // Reported before unlocking, so it precedes the delivery that the drain reports.
        post?.emitEnqueued(registration: self, pending: pending, droppedOldest: false)
        let start = !draining
        draining = true
        lock.unlock()
        if start {
            // Detached: the poster's priority, task-locals and cancellation are not the observer's.
            Task.detached { await self.drain() }
        }
        return pending
    }

    /// Takes the whole mailbox at once, so the poster and the drain meet at the lock once per batch
    /// rather than once per message.
    private func drain() async {
        while true {
            lock.lock()
            guard !mailbox.isEmpty else {
                draining = false
                lock.unlock()
                return
            }
            var batch = mailbox.removeAll()
            taken.store(batch.count, ordering: .relaxed)
            lock.unlock()
            while let letter = batch.popFirst() {
                taken.subtract(1, ordering: .relaxed)
                guard isActive.load(ordering: .acquiring) else { continue }
                if let trace = letter.trace {
                    // The clock posts read, so a post inside the call falls within its start and end;
                    // read again inside a context probe's scope, so the call's duration leaves it out.
                    var start = ThreadContext.current.now()
                    await trace.withinDelivery(registration: id, start: start) {
                        start = ThreadContext.current.now()
                        await AsyncDeliveryScope.run(for: trace.postID) { await handler(letter.message) }
                    }
                    trace.emitDelivered(registration: id, start: start, end: ThreadContext.current.now())
                } else {
                    await handler(letter.message)
                    if let counted = letter.counted {
                        countDelivery()
                        counted.center?.countHandedOffMessage(counterIndex: counted.counterIndex)
                    }
                }
            }
        }
    }

    /// Messages still queued are discarded; a call already running finishes.
    override func deactivate() {
        lock.lock()
        isActive.store(false, ordering: .releasing)
        let discarded = mailbox.removeAll()
        lock.unlock()
        withExtendedLifetime(discarded) {}
    }
}
