public import Foundation
import Synchronization
import NotifySystem

extension NotifyCenter {
    /// The `Message`s posted with `subject`, as an async sequence.
    ///
    /// Observation starts at `makeAsyncIterator()` (posts before it are not seen) and ends when the
    /// iterator and its copies go away or the consuming task is cancelled; a loop started in an
    /// already-cancelled task ends at once. A post fills the buffer before it returns, in post
    /// order; when `bufferSize` messages wait, the oldest is dropped (probes see
    /// `droppedOldest`). `bufferSize` must be at least 1.
    public func messages<Identifier: MessageIdentifier, Message: AsyncMessage>(
        of subject: Message.Subject,
        for identifier: Identifier,
        bufferSize limit: Int = 10,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> some AsyncSequence<Message, Never> & Sendable
    where Message == Identifier.MessageType, Message.Subject: AnyObject {
        MessageSequence<Message>(center: self, subject: subject, bufferSize: limit, file: file, line: line)
    }

    /// The `Message`s posted with any subject, or none (the metatype is not a filter).
    public func messages<Identifier: MessageIdentifier, Message: AsyncMessage>(
        of subject: Message.Subject.Type,
        for identifier: Identifier,
        bufferSize limit: Int = 10,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> some AsyncSequence<Message, Never> & Sendable where Message == Identifier.MessageType {
        MessageSequence<Message>(center: self, subject: nil, bufferSize: limit, file: file, line: line)
    }

    /// The `Message`s posted with `subject` (nil: any subject, or none).
    public func messages<Message: AsyncMessage>(
        of subject: Message.Subject? = nil,
        for messageType: Message.Type,
        bufferSize limit: Int = 10,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> some AsyncSequence<Message, Never> & Sendable where Message.Subject: AnyObject {
        MessageSequence<Message>(center: self, subject: subject, bufferSize: limit, file: file, line: line)
    }
}

struct MessageSequence<Message: NotifyCenter.AsyncMessage>: AsyncSequence, Sendable {
    typealias Element = Message
    typealias Failure = Never

    let center: NotifyCenter
    /// Weak, as in Foundation; if it dies before iteration starts, the sequence is empty.
    let subject: WeakSubject
    let bufferSize: Int
    let file: StaticString
    let line: UInt

    init(center: NotifyCenter, subject: AnyObject?, bufferSize: Int, file: StaticString, line: UInt) {
        precondition(
            bufferSize > 0, "messages(of:for:bufferSize:): bufferSize must be at least 1, got \(bufferSize)",
            file: file, line: line)
        self.center = center
        self.subject = WeakSubject(subject)
        self.bufferSize = bufferSize
        self.file = file
        self.line = line
    }

    func makeAsyncIterator() -> Iterator {
        let subjectFilter: AnyObject?
        switch subject.state {
        case .any: subjectFilter = nil
        case .alive(let object): subjectFilter = object
        case .dead:
            // Nothing can match a dead subject: the sequence is empty.
            let ended = MessageSequenceObserver<Message>(id: 0, subject: nil, capacity: 1, file: file, line: line)
            ended.deactivate()
            return Iterator(subscription: MessageSubscription(registration: ended, link: center.link))
        }
        let registration = center.registerMessage { id in
            MessageSequenceObserver<Message>(
                id: id, subject: subjectFilter, capacity: bufferSize, file: file, line: line)
        }.registration
        return Iterator(subscription: MessageSubscription(registration: registration, link: center.link))
    }

    struct Iterator: AsyncIteratorProtocol {
        let subscription: MessageSubscription<Message>

        mutating func next() async -> Message? {
            await subscription.next()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async -> Message? {
            await subscription.next()
        }
    }
}

/// A subject held weakly inside a Sendable sequence; only compared by identity.
struct WeakSubject: @unchecked Sendable {
    enum State {
        case any, alive(AnyObject), dead
    }
    private weak var object: AnyObject?
    private let filtered: Bool

    init(_ object: AnyObject?) {
        self.object = object
        self.filtered = object != nil
    }

    var state: State {
        guard filtered else { return .any }
        return object.map { .alive($0) } ?? .dead
    }
}

/// Owns the registration of one iterator: ends it when the iterator (and its copies) go away.
final class MessageSubscription<Message: NotifyCenter.AsyncMessage>: Sendable {
    let registration: MessageSequenceObserver<Message>
    let link: CenterLink

    init(registration: MessageSequenceObserver<Message>, link: CenterLink) {
        self.registration = registration
        self.link = link
    }

    deinit { end() }

    func end() {
        if link.center?.endMessageRegistration(id: registration.id, key: registration.key, reason: .sequenceEnded)
            != true
        {
            registration.deactivate()
        }
    }

    func next() async -> Message? {
        if Task.isCancelled {
            end()
            return nil
        }
        return await withTaskCancellationHandler {
            await registration.next()
        } onCancel: {
            end()
        }
    }
}
