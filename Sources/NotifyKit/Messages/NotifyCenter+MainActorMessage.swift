public import Foundation
import Synchronization
import NotifySystem

extension NotifyCenter {
    /// Observes `Message` posted with `subject`, matched by identity; the subject is held weakly
    /// and a dead subject never matches.
    ///
    /// The observer runs on the main actor, inside `post`, before `post` returns.
    ///
    /// ```swift
    /// let token = center.addObserver(of: cart, for: .cartDidChange) { message in refresh(message) }
    /// ```
    @inlinable
    public func addObserver<Identifier: MessageIdentifier, Message: MainActorMessage>(
        of subject: Message.Subject,
        for identifier: Identifier,
        using observer: @escaping @MainActor (Message) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message == Identifier.MessageType, Message.Subject: AnyObject {
        addMessageObserver(MainActorMessageObserver(subject: subject, handler: observer, file: file, line: line))
    }

    /// Observes `Message` posted with any subject, or none (the metatype is not a filter).
    @inlinable
    public func addObserver<Identifier: MessageIdentifier, Message: MainActorMessage>(
        of subject: Message.Subject.Type,
        for identifier: Identifier,
        using observer: @escaping @MainActor (Message) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message == Identifier.MessageType {
        addMessageObserver(MainActorMessageObserver(subject: nil, handler: observer, file: file, line: line))
    }

    /// Observes `Message` posted with `subject` (nil: any subject, or none).
    @inlinable
    public func addObserver<Message: MainActorMessage>(
        of subject: Message.Subject? = nil,
        for messageType: Message.Type,
        using observer: @escaping @MainActor (Message) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> ObservationToken where Message.Subject: AnyObject {
        addMessageObserver(MainActorMessageObserver(subject: subject, handler: observer, file: file, line: line))
    }

    /// Calls every observer of `Message` for `subject` and for any subject, in that order, then in
    /// registration order, before returning.
    ///
    /// An observer removed by another observer during this post is not called; one added during
    /// it is not called for this post. No lock is held during the calls, so observers may post.
    @MainActor
    public func post<Message: MainActorMessage>(
        _ message: Message, subject: Message.Subject, file: StaticString = #fileID, line: UInt = #line
    ) where Message.Subject: AnyObject {
        postMainActor(message, subject: subject, file: file, line: line)
    }

    /// Calls every observer of `Message` that has no subject filter, before returning.
    @MainActor
    public func post<Message: MainActorMessage>(_ message: Message, file: StaticString = #fileID, line: UInt = #line) {
        postMainActor(message, subject: nil, file: file, line: line)
    }

    @MainActor
    @inline(__always)
    private func postMainActor<Message: MainActorMessage>(
        _ message: Message, subject: AnyObject?, file: StaticString, line: UInt
    ) {
        let (found, probes, counterIndex) = messageBucket(for: ObjectIdentifier(Message.self))
        if let probes {
            postMainActorProbed(message, subject: subject, bucket: found, probes: probes, file: file, line: line)
            return
        }
        var delivered: UInt64 = 0
        if let bucket = found {
            forEachReceiver(in: bucket, subject: subject) {
                if deliverMainActor(message, to: $0) { delivered &+= 1 }
            }
        }
        countUnwatchedMessage(Message.self, counterIndex: counterIndex, deliveries: delivered, reached: delivered != 0)
    }

    @MainActor
    @inline(__always)
    private func deliverMainActor<Message: MainActorMessage>(_ message: Message, to registration: MessageRegistration)
        -> Bool
    {
        // A type conforming to both protocols could have observers of the other kind.
        guard registration.kind == .mainActorMessage else { return false }
        unsafeDowncast(registration, to: MainActorMessageObserver<Message>.self).handler(message)
        if countingUnwatched.load(ordering: .relaxed) { registration.countDelivery() }
        return true
    }

    @MainActor
    private func postMainActorProbed<Message: MainActorMessage>(
        _ message: Message, subject: AnyObject?, bucket: MessageRegistry.Bucket?, probes: ProbeSet,
        file: StaticString, line: UInt
    ) {
        if let parent = ThreadContext.current.asyncDeliveryParent {
            ThreadContext.current.withinPost(parent) {
                postMainActorProbed(message, subject: subject, bucket: bucket, probes: probes, file: file, line: line)
            }
            return
        }
        let subjectKey = subject.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        let receivers = matchingReceivers(bucket, subjectKey: subjectKey)
        let post = emitMessagePosted(
            Message.self, kind: .mainActor, subject: subject, matched: receivers.count, to: probes, file: file,
            line: line)
        let scope = post.scope(
            callsite: ProbeEvent.Callsite(file: file, line: line), matched: receivers.count, message: .mainActor)
        probes.withinPost(scope) {
            post.context.withinPost(post.postID) {
                var clock = post.start
                for registration in receivers
                where registration.kind == .mainActorMessage && registration.isActive.load(ordering: .acquiring) {
                    let observer = unsafeDowncast(registration, to: MainActorMessageObserver<Message>.self)
                    guard let contextProbe = probes.contextProbe else {
                        observer.handler(message)
                        clock = emitMessageDelivered(post, registration: registration, start: clock)
                        continue
                    }
                    let call = post.call(registration, wait: 0, thread: post.context.thread)
                    _ = contextProbe.withinDelivery(call, resuming: nil) {
                        let start = post.context.now()
                        observer.handler(message)
                        _ = emitMessageDelivered(post, registration: registration, start: start)
                        return true
                    }
                    clock = post.context.now()
                }
            }
        }
    }

    /// The registrations a probed post will call, in calling order; ends those whose subject died.
    func matchingReceivers(_ bucket: MessageRegistry.Bucket?, subjectKey: UInt) -> [MessageRegistration] {
        guard let bucket else { return [] }
        var receivers: [MessageRegistration] = []
        if subjectKey != 0 {
            for registration in bucket.subjects where accepts(registration, subjectKey: subjectKey) {
                receivers.append(registration)
            }
        }
        for registration in bucket.wildcard where registration.isActive.load(ordering: .acquiring) {
            receivers.append(registration)
        }
        return receivers
    }
}
