import Foundation
import Synchronization
import NotifySystem

/// The registration of one `messages(of:for:bufferSize:)` iterator: a bounded, drop-oldest buffer
/// filled on the posting thread and read by one consumer.
final class MessageSequenceObserver<Message: NotifyCenter.AsyncMessage>: MessageRegistration, @unchecked Sendable {
    /// A buffered message and what its delivery reports when the consumer takes it: a message the
    /// full buffer drops was never delivered, so nothing is reported at the push.
    struct Letter {
        let message: Message
        let trace: MessageHandOffTrace?
        let counted: UnwatchedDelivery?
    }

    // `buffer`, `waiter` and `finished` are guarded by `lock`.
    private let lock = Lock()
    @exclusivity(unchecked) private var buffer = MessageFIFO<Letter>()
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Letter?, Never>?
    @exclusivity(unchecked) private var finished = false
    private let capacity: Int

    init(id: UInt64, subject: AnyObject?, capacity: Int, file: StaticString, line: UInt) {
        self.capacity = capacity
        super.init(id: id, messageType: Message.self, subject: subject, kind: .messageSequence, file: file, line: line)
    }

    /// Hands `message` to a waiting consumer or buffers it, dropping the oldest when full; reports
    /// the enqueue to `post`'s probes. Returns false when the sequence has ended.
    @discardableResult
    func push(_ message: Message, trace post: MessagePostTrace?, counted: UnwatchedDelivery?) -> Bool {
        let letter = Letter(message: message, trace: post?.handOff(to: self), counted: counted)
        lock.lock()
        if finished {
            lock.unlock()
            return false
        }
        if let waiter {
            self.waiter = nil
            // Reported before the consumer runs, so it precedes the delivery the consumer reports.
            post?.emitEnqueued(registration: self, pending: 0, droppedOldest: false)
            lock.unlock()
            waiter.resume(returning: letter)
            return true
        }
        var dropped: Letter?
        if buffer.count >= capacity { dropped = buffer.popFirst() }
        buffer.append(letter)
        post?.emitEnqueued(registration: self, pending: buffer.count, droppedOldest: dropped != nil)
        lock.unlock()
        withExtendedLifetime(dropped) {}
        return true
    }

    /// The next message, reported as delivered on the consumer's thread as it is taken.
    func next() async -> Message? {
        guard let letter = await nextLetter() else { return nil }
        if let trace = letter.trace {
            let now = MonotonicClock.now()
            trace.emitDelivered(registration: id, start: now, end: now)
        } else if let counted = letter.counted {
            countDelivery()
            counted.center?.countHandedOffMessage(counterIndex: counted.counterIndex)
        }
        return letter.message
    }

    private func nextLetter() async -> Letter? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Letter?, Never>) in
            lock.lock()
            if let letter = buffer.popFirst() {
                lock.unlock()
                continuation.resume(returning: letter)
            } else if finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                // One consumer at a time; a second concurrent `next()` on a copy ends the first.
                let previous = waiter
                waiter = continuation
                lock.unlock()
                previous?.resume(returning: nil)
            }
        }
    }

    /// Ends the sequence: buffered messages are still read, then `next()` returns nil.
    override func deactivate() {
        super.deactivate()
        lock.lock()
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }
}
