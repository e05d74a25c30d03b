import Foundation
import Synchronization
import NotifySystem

/// The registration of one `messages(of:for:bufferSize:)` iterator: a bounded, drop-oldest buffer
/// filled on the posting thread and read by one consumer.
final class MessageSequenceObserver<Message: NotifyCenter.AsyncMessage>: MessageRegistration, @unchecked Sendable {
    // `buffer`, `waiter` and `finished` are guarded by `lock`.
    private let lock = Lock()
    @exclusivity(unchecked) private var buffer = MessageFIFO<Message>()
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Message?, Never>?
    @exclusivity(unchecked) private var finished = false
    private let capacity: Int

    init(id: UInt64, subject: AnyObject?, capacity: Int, file: StaticString, line: UInt) {
        self.capacity = capacity
        super.init(id: id, messageType: Message.self, subject: subject, kind: .messageSequence, file: file, line: line)
    }

    /// Hands `message` to a waiting consumer or buffers it. Returns how many wait afterwards (0 when
    /// a consumer took it or the sequence ended) and whether the oldest was dropped to make room.
    func push(_ message: Message) -> (pending: Int, droppedOldest: Bool) {
        lock.lock()
        if finished {
            lock.unlock()
            return (0, false)
        }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: message)
            return (0, false)
        }
        var dropped: Message?
        if buffer.count >= capacity { dropped = buffer.popFirst() }
        buffer.append(message)
        let pending = buffer.count
        lock.unlock()
        return (pending, dropped != nil)
    }

    func next() async -> Message? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Message?, Never>) in
            lock.lock()
            if let message = buffer.popFirst() {
                lock.unlock()
                continuation.resume(returning: message)
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
