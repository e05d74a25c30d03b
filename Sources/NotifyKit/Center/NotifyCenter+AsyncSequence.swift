public import Foundation
import NotifySystem

extension NotifyCenter {
    /// The notifications posted with `name` (nil: every name) and `object`, as an async sequence.
    ///
    /// Darwin has this; Foundation on Linux does not. The registration is made when iteration
    /// starts (`makeAsyncIterator()`), so posts before that are not seen, and ends when the iterator
    /// goes away or its task is cancelled. Notifications wait in a buffer of `bufferSize`; when it is
    /// full the oldest is dropped, so a slow consumer never slows the poster.
    ///
    /// ```swift
    /// for await note in center.notifications(named: .themeDidChange) { apply(note) }
    /// ```
    public func notifications(
        named name: Notification.Name?, object: AnyObject? = nil, bufferSize: Int = 64,
        file: StaticString = #fileID, line: UInt = #line
    ) -> some AsyncSequence<Notification, Never> & Sendable {
        NotificationSequence(
            center: self, name: name, object: ObjectBox(object), bufferSize: max(1, bufferSize),
            file: file, line: line)
    }
}

/// Carries the object filter into a Sendable sequence; it is only compared by identity.
struct ObjectBox: @unchecked Sendable {
    let object: AnyObject?
    init(_ object: AnyObject?) { self.object = object }
}

struct NotificationSequence: AsyncSequence, Sendable {
    typealias Element = Notification
    typealias Failure = Never

    let center: NotifyCenter
    let name: Notification.Name?
    let object: ObjectBox
    let bufferSize: Int
    let file: StaticString
    let line: UInt

    func makeAsyncIterator() -> Iterator {
        let buffer = NotificationBuffer(capacity: bufferSize)
        let token = center.addBlock(
            name: name, object: object.object, target: .posting, kind: .sequence,
            block: { [buffer] notification in buffer.push(notification) }, file: file, line: line)
        return Iterator(subscription: Subscription(buffer: buffer, token: token))
    }

    struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        mutating func next() async -> Notification? {
            await subscription.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Notification? {
            await subscription.next()
        }
    }
}

/// Owns the registration of one iterator: ends it when the iterator (and its copies) go away.
final class Subscription: Sendable {
    let buffer: NotificationBuffer
    let token: NotifyToken

    init(buffer: NotificationBuffer, token: NotifyToken) {
        self.buffer = buffer
        self.token = token
    }

    deinit { end() }

    func end() {
        token.center?.end(
            registrationID: token.registrationID, slot: token.slot, reason: .sequenceEnded, callsite: nil)
        buffer.finish()
    }

    func next() async -> Notification? {
        await withTaskCancellationHandler {
            await buffer.next()?.notification
        } onCancel: {
            end()
        }
    }
}

/// The bounded, drop-oldest buffer between the posting threads and one consumer. Not
/// `AsyncStream(bufferingPolicy: .bufferingNewest)`, which has the same semantics: notify-bench's
/// `notifications(named:)` rows measured it at 3× the cost per post and per delivery.
final class NotificationBuffer: @unchecked Sendable {  // `state` is guarded by `lock`
    private struct State {
        var pending: [Notification] = []
        var head = 0
        var waiter: CheckedContinuation<UncheckedNotification?, Never>?
        var finished = false
    }
    private let lock = Lock()
    private var state = State()
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func push(_ notification: Notification) {
        lock.lock()
        if state.finished {
            lock.unlock()
            return
        }
        if let waiter = state.waiter {
            state.waiter = nil
            lock.unlock()
            waiter.resume(returning: UncheckedNotification(notification))
            return
        }
        if state.pending.count - state.head >= capacity { state.head += 1 }
        state.pending.append(notification)
        if state.head > capacity {
            state.pending.removeFirst(state.head)
            state.head = 0
        }
        lock.unlock()
    }

    func finish() {
        lock.lock()
        state.finished = true
        let waiter = state.waiter
        state.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    func next() async -> UncheckedNotification? {
        await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedNotification?, Never>) in
            lock.lock()
            if state.head < state.pending.count {
                let notification = state.pending[state.head]
                state.head += 1
                if state.head == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                lock.unlock()
                continuation.resume(returning: UncheckedNotification(notification))
            } else if state.finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                state.waiter = continuation
                lock.unlock()
            }
        }
    }
}
