/// A probe that runs around posts and handlers instead of only hearing of them afterwards: a
/// tracer opens a span per post and per handler and makes each the handler's current context, so
/// what the handler logs or calls joins the poster's trace.
///
/// A center calls the first context probe attached to it, on the posting thread for
/// ``withinPost(_:_:)`` and ``handOff(_:)``, on the delivering thread or task for the
/// `withinDelivery` calls. Like every probe, it receives the center's events too. With no context
/// probe attached a probed post pays one nil check per post and per handler; an unprobed post
/// pays nothing.
public protocol NotifyContextProbe: NotifyProbe {
    /// Runs `body`, which delivers the post to the handlers that run inside `post`.
    func withinPost(_ post: NotifyPostScope, _ body: () -> Void)

    /// Called on the posting thread when a handler is handed to another thread, queue or task;
    /// what it returns comes back as `resuming` to the `withinDelivery` call of that handler.
    func handOff(_ hop: NotifyHandlerCall) -> (any Sendable)?

    /// Runs one handler; `body` returns false when the observer is gone and nothing ran.
    func withinDelivery(_ call: NotifyHandlerCall, resuming: (any Sendable)?, _ body: () -> Bool) -> Bool

    /// Runs one `AsyncMessage` observer call in its task.
    func withinDelivery(_ call: NotifyHandlerCall, resuming: (any Sendable)?, _ body: () async -> Void) async
}

/// A post as a context probe sees it when the post begins.
public struct NotifyPostScope: Sendable {
    /// As ``ProbeEvent/Post/postID``: its deliveries and the posts its handlers make refer to it.
    public let postID: UInt64
    /// The notification name, or a typed message's type name.
    public let name: String
    /// The `post` call.
    public let callsite: ProbeEvent.Callsite
    /// The registrations that will receive it.
    public let matched: Int
    /// The post whose handler made this post, 0 when none.
    public let parentPostID: UInt64
    /// The protocol of a typed message; nil for a `Notification`.
    public let message: ProbeEvent.MessageKind?
    /// ``NotifyThread/id`` of the posting thread.
    public let thread: UInt64
}

/// One handler run (or, at ``NotifyContextProbe/handOff(_:)``, about to be handed off).
public struct NotifyHandlerCall: Sendable {
    public let postID: UInt64
    public let registration: UInt64
    /// The notification name, or a typed message's type name.
    public let name: String
    /// Where the observer was registered.
    public let registeredAt: ProbeEvent.Callsite
    public let target: ProbeEvent.TargetKind
    /// The queue label, operation-queue name or delivery-thread name; nil for posting, main and tasks.
    public let targetLabel: String?
    /// The thread the handler runs on; at a hand-off, the posting thread.
    public let thread: NotifyThread
    /// Nanoseconds between the hand-off and the handler's start; 0 inline and at a hand-off.
    public let wait: UInt64
}

extension ProbeSet {
    /// Runs `body` within the context probe's post scope, if a context probe is attached.
    @inline(__always)
    func withinPost(_ post: @autoclosure () -> NotifyPostScope, _ body: () -> Void) {
        guard let contextProbe else { return body() }
        contextProbe.withinPost(post(), body)
    }
}
