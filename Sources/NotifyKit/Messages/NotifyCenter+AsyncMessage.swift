public import Foundation
import Synchronization
import NotifySystem

extension NotifyCenter {
    /// Observes `Message` posted with `subject`, matched by identity; the subject is held weakly
    /// and a dead subject never matches.
    ///
    /// The observer runs after `post` returns, in its own serial task: its calls follow post order
    /// and never overlap; other observers run concurrently with it.
    public func addObserver<Identifier: MessageIdentifier, Message: AsyncMessage>(
        of subject: Message.Subject,
        for identifier: Identifier,
        using observer: @escaping @Sendable (Message) async -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message == Identifier.MessageType, Message.Subject: AnyObject {
        addAsyncObserver(subject: subject, observer, file: file, line: line)
    }

    /// Observes `Message` posted with any subject, or none (the metatype is not a filter).
    public func addObserver<Identifier: MessageIdentifier, Message: AsyncMessage>(
        of subject: Message.Subject.Type,
        for identifier: Identifier,
        using observer: @escaping @Sendable (Message) async -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message == Identifier.MessageType {
        addAsyncObserver(subject: nil, observer, file: file, line: line)
    }

    /// Observes `Message` posted with `subject` (nil: any subject, or none).
    public func addObserver<Message: AsyncMessage>(
        of subject: Message.Subject? = nil,
        for messageType: Message.Type,
        using observer: @escaping @Sendable (Message) async -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message.Subject: AnyObject {
        addAsyncObserver(subject: subject, observer, file: file, line: line)
    }

    private func addAsyncObserver<Message: AsyncMessage>(
        subject: AnyObject?, _ observer: @escaping @Sendable (Message) async -> Void, file: StaticString, line: UInt
    ) -> ObservationToken {
        let added = registerMessage { id in
            AsyncMessageObserver(id: id, subject: subject, handler: observer, file: file, line: line)
        }
        return makeToken(for: added.registration, in: added.entry)
    }

    /// Queues `message` for every observer of `Message` for `subject` and for any subject, and
    /// returns; `messages(of:for:bufferSize:)` sequences receive it before `post` returns.
    public func post<Message: AsyncMessage>(
        _ message: Message, subject: Message.Subject, file: StaticString = #fileID, line: UInt = #line
    ) where Message.Subject: AnyObject {
        postAsync(message, subject: subject, file: file, line: line)
    }

    /// Queues `message` for every observer of `Message` that has no subject filter, and returns.
    public func post<Message: AsyncMessage>(_ message: Message, file: StaticString = #fileID, line: UInt = #line) {
        postAsync(message, subject: nil, file: file, line: line)
    }

    @inline(__always)
    private func postAsync<Message: AsyncMessage>(
        _ message: Message, subject: AnyObject?, file: StaticString, line: UInt
    ) {
        let (found, probes, counterIndex) = messageBucket(for: ObjectIdentifier(Message.self))
        if let probes {
            postAsyncProbed(message, subject: subject, bucket: found, probes: probes, file: file, line: line)
            return
        }
        // Every delivery counts where it happens: an observer's call, a sequence consumer's take.
        var reached = false
        if let bucket = found {
            forEachReceiver(in: bucket, subject: subject) { registration in
                if handOff(message, to: registration, counterIndex: counterIndex) { reached = true }
            }
        }
        countUnwatchedMessage(Message.self, counterIndex: counterIndex, deliveries: 0, reached: reached)
    }

    /// Queues the message for one registration's observer or sequence; false when the
    /// registration takes no such message.
    @inline(__always)
    private func handOff<Message: AsyncMessage>(
        _ message: Message, to registration: MessageRegistration, counterIndex: UInt32
    ) -> Bool {
        let counted =
            countingUnwatched.load(ordering: .relaxed)
            ? UnwatchedDelivery(center: self, counterIndex: counterIndex) : nil
        switch registration.kind {
        case .asyncMessage:
            unsafeDowncast(registration, to: AsyncMessageObserver<Message>.self).enqueue(
                message, trace: nil, counted: counted)
            return true
        case .messageSequence:
            unsafeDowncast(registration, to: MessageSequenceObserver<Message>.self).push(
                message, trace: nil, counted: counted)
            return true
        default:
            // A type conforming to both protocols could have observers of the other kind.
            return false
        }
    }

    private func postAsyncProbed<Message: AsyncMessage>(
        _ message: Message, subject: AnyObject?, bucket: MessageRegistry.Bucket?, probes: ProbeSet,
        file: StaticString, line: UInt
    ) {
        if let parent = ThreadContext.current.asyncDeliveryParent {
            ThreadContext.current.withinPost(parent) {
                postAsyncProbed(message, subject: subject, bucket: bucket, probes: probes, file: file, line: line)
            }
            return
        }
        let subjectKey = subject.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        let receivers = matchingReceivers(bucket, subjectKey: subjectKey)
        let post = emitMessagePosted(
            Message.self, kind: .async, subject: subject, matched: receivers.count, to: probes, file: file, line: line)
        let scope = post.scope(
            callsite: ProbeEvent.Callsite(file: file, line: line), matched: receivers.count, message: .async)
        probes.withinPost(scope) {
            post.context.withinPost(post.postID) {
                for registration in receivers where registration.isActive.load(ordering: .acquiring) {
                    if registration.kind == .asyncMessage {
                        unsafeDowncast(registration, to: AsyncMessageObserver<Message>.self).enqueue(
                            message, trace: post)
                    } else if registration.kind == .messageSequence {
                        unsafeDowncast(registration, to: MessageSequenceObserver<Message>.self).push(
                            message, trace: post, counted: nil)
                    }
                }
            }
        }
    }
}
