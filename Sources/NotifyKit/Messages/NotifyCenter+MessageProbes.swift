import Foundation
import Synchronization
import NotifySystem

/// A probed message post on its posting thread: what its deliveries and enqueues report.
struct MessagePostTrace {
    let probes: ProbeSet
    let postID: UInt64
    let name: String
    let context: ThreadContext
    /// When the post was reported: the first delivery starts here.
    let start: UInt64
    /// The post whose handler made this post, 0 when none.
    let parentPostID: UInt64

    func emitEnqueued(registration: MessageRegistration, pending: Int, droppedOldest: Bool) {
        probes.emit(
            .messageEnqueued(
                at: context.now(), postID: postID, registration: registration.id, pending: pending,
                droppedOldest: droppedOldest),
            named: Notification.Name(rawValue: name), context: context)
    }

    /// What a delivery of `registration` on another thread needs: everything but the posting
    /// thread's context. Only an `AsyncMessage` observer's call runs within a context probe's
    /// scope: a sequence's consumer runs in a task of its own, in its own context.
    func handOff(to registration: MessageRegistration) -> MessageHandOffTrace {
        let carried =
            registration.kind == .asyncMessage
            ? probes.contextProbe.flatMap { $0.handOff(call(registration, wait: 0, thread: context.thread)) } : nil
        return MessageHandOffTrace(
            probes: probes, postID: postID, name: name, postingThread: context.thread.id, enqueuedAt: context.now(),
            registeredAt: registration.callsite, carried: carried)
    }

    /// What a context probe is told of `registration`'s call for this post.
    func call(_ registration: MessageRegistration, wait: UInt64, thread: NotifyThread) -> NotifyHandlerCall {
        NotifyHandlerCall(
            postID: postID, registration: registration.id, name: name, registeredAt: registration.callsite,
            target: registration.target, targetLabel: nil, thread: thread, wait: wait)
    }

    /// The post's scope as its context probe sees it.
    func scope(callsite: ProbeEvent.Callsite, matched: Int, message: ProbeEvent.MessageKind) -> NotifyPostScope {
        NotifyPostScope(
            postID: postID, name: name, callsite: callsite, matched: matched, parentPostID: parentPostID,
            message: message, thread: context.thread.id)
    }
}

/// A probed message queued for an `AsyncMessage` observer.
struct MessageHandOffTrace: Sendable {
    let probes: ProbeSet
    let postID: UInt64
    let name: String
    let postingThread: UInt64
    let enqueuedAt: UInt64
    let registeredAt: ProbeEvent.Callsite
    /// What the context probe's ``NotifyContextProbe/handOff(_:)`` returned for this message.
    let carried: (any Sendable)?

    /// Runs an `AsyncMessage` observer's call within the context probe's delivery scope, if any.
    func withinDelivery(registration: UInt64, start: UInt64, _ body: () async -> Void) async {
        guard let contextProbe = probes.contextProbe else { return await body() }
        let call = NotifyHandlerCall(
            postID: postID, registration: registration, name: name, registeredAt: registeredAt, target: .task,
            targetLabel: nil, thread: ThreadContext.current.thread, wait: start > enqueuedAt ? start - enqueuedAt : 0)
        await contextProbe.withinDelivery(call, resuming: carried, body)
    }
}

// Every probe event of typed messages is built here.
extension NotifyCenter {
    /// Must be called with `lock` held, like every `registered` event.
    func emitMessageRegistered(_ registration: MessageRegistration, to probes: ProbeSet, preexisting: Bool) {
        // A snapshot names the thread that made it.
        probes.emit(
            .registered(registration.info(preexisting: preexisting)),
            thread: preexisting ? registration.registeringThread : ThreadContext.currentID)
    }

    func emitMessageRemoved(
        _ registration: MessageRegistration, reason: ProbeEvent.RemovalReason, callsite: ProbeEvent.Callsite? = nil,
        to probes: ProbeSet
    ) {
        probes.emit(.removed(registration: registration.id, reason: reason, callsite: callsite))
    }

    func emitMessagePosted(
        _ type: any Any.Type, kind: ProbeEvent.MessageKind, subject: AnyObject?, matched: Int, to probes: ProbeSet,
        file: StaticString, line: UInt
    ) -> MessagePostTrace {
        let context = ThreadContext.current
        let postID = context.takePostID()
        let name = TypeNames.name(of: type)
        let object = subject.map { subject in
            ProbeEvent.ObjectRef(subject, serial: lock.withLock { table.serials.serial(of: subject) })
        }
        probes.prepareRings(context)
        let now = context.now()
        let parentPostID = context.currentPostID
        probes.emit(
            .posted(
                at: now, postID: postID, object: object, hasUserInfo: false, matched: matched,
                depth: context.postDepth + 1, parentPostID: parentPostID, file: file, line: line,
                message: kind),
            named: Notification.Name(rawValue: name), context: context)
        return MessagePostTrace(
            probes: probes, postID: postID, name: name, context: context, start: now, parentPostID: parentPostID)
    }

    /// Reports a call that ran on the posting thread from `start` until now; returns now.
    func emitMessageDelivered(_ post: MessagePostTrace, registration: MessageRegistration, start: UInt64) -> UInt64 {
        let end = post.context.now()
        post.probes.emit(
            .delivered(
                at: end, postID: post.postID, registration: registration.id, postingThread: post.context.thread.id,
                target: registration.target, start: start, wait: 0, depth: post.context.postDepth),
            named: Notification.Name(rawValue: post.name), context: post.context)
        return end
    }

}

extension MessageHandOffTrace {
    /// Reports an `AsyncMessage` observer's call, on the thread where it ended.
    func emitDelivered(registration: UInt64, start: UInt64, end: UInt64) {
        let context = ThreadContext.current
        probes.emit(
            .delivered(
                at: end, postID: postID, registration: registration, postingThread: postingThread, target: .task,
                start: start, wait: start > enqueuedAt ? start - enqueuedAt : 0, depth: context.postDepth),
            named: Notification.Name(rawValue: name), context: context)
    }
}

extension MessageRegistration {
    func info(preexisting: Bool) -> ProbeEvent.Registration {
        ProbeEvent.Registration(
            id: id, name: TypeNames.name(of: messageType), kind: kind, observer: nil,
            object: subject.map { ProbeEvent.ObjectRef($0, serial: subjectSerial) }, target: target, targetLabel: nil,
            callsite: callsite,
            // Not main-thread-only: main-actor code may run off the main thread (an async `main`).
            preexisting: preexisting, capturesObserverStrongly: false, mainThreadOnly: false,
            tokenDropped: false, registeredAt: registeredAt, deliveries: deliveries.load(ordering: .relaxed))
    }
}
