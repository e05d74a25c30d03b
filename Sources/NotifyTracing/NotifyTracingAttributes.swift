import NotifyKit
import Tracing

/// The attribute keys of the spans ``NotifyTracingProbe`` makes; `thread.id` and `thread.name`
/// are OpenTelemetry's own.
public enum NotifyTracingAttributes {
    /// The post's id (an integer), unique in the process: `notifytop explain` and the dashboard's
    /// cascades name posts by it.
    public static let postID = "notify.post.id"
    /// The notification name, or a typed message's type name.
    public static let name = "notify.name"
    /// The `post` call's `file:line`.
    public static let postSite = "notify.post.site"
    /// Registrations the post reached.
    public static let matched = "notify.post.matched"
    /// The id of the post whose handler made this post; absent for a post made outside any handler.
    public static let parentPostID = "notify.post.parent_id"
    /// `main` or `async` for a typed message; absent for a `Notification`.
    public static let message = "notify.message"
    /// The registration's id, as `notifytop`'s observer table shows it.
    public static let registration = "notify.registration.id"
    /// Where the observer was registered: `file:line`.
    public static let registrationSite = "notify.registration.site"
    /// Where the handler runs: `posting`, `dispatch-queue`, `operation-queue`, `thread`, `main`, `task`.
    public static let target = "notify.target"
    /// The queue label, operation-queue name or delivery-thread name.
    public static let targetLabel = "notify.target.label"
    /// Nanoseconds the handler waited between the hand-off and its start (an integer).
    public static let waitNanoseconds = "notify.wait_ns"
    /// True when the observer had deallocated, so no handler ran.
    public static let observerGone = "notify.observer.gone"
    /// On a hop: true when the handler never ran (its registration ended before its turn).
    public static let abandoned = "notify.hop.abandoned"
    /// NotifyKit's thread id (`NotifyThread.id`).
    public static let threadID = "thread.id"
    /// The thread's name as NotifyKit knows it (`NotifyThread.name`).
    public static let threadName = "thread.name"

    static func describe(_ post: NotifyPostScope, in attributes: inout SpanAttributes) {
        attributes[postID] = SpanAttribute.int64(Int64(truncatingIfNeeded: post.postID))
        attributes[name] = SpanAttribute.string(post.name)
        attributes[postSite] = SpanAttribute.string(post.callsite.description)
        attributes[matched] = SpanAttribute.int64(Int64(post.matched))
        if post.parentPostID != 0 {
            attributes[parentPostID] = SpanAttribute.int64(Int64(truncatingIfNeeded: post.parentPostID))
        }
        if let kind = post.message { attributes[message] = SpanAttribute.string(kind.rawValue) }
        attributes[threadID] = SpanAttribute.int64(Int64(truncatingIfNeeded: post.thread))
    }

    static func describe(hop: NotifyHandlerCall, in attributes: inout SpanAttributes) {
        attributes[postID] = SpanAttribute.int64(Int64(truncatingIfNeeded: hop.postID))
        attributes[name] = SpanAttribute.string(hop.name)
        describeRegistration(hop, in: &attributes)
    }

    static func describe(_ call: NotifyHandlerCall, in attributes: inout SpanAttributes) {
        describe(hop: call, in: &attributes)
        attributes[waitNanoseconds] = SpanAttribute.int64(Int64(clamping: call.wait))
        attributes[threadID] = SpanAttribute.int64(Int64(truncatingIfNeeded: call.thread.id))
        attributes[threadName] = SpanAttribute.string(call.thread.name)
    }

    private static func describeRegistration(_ call: NotifyHandlerCall, in attributes: inout SpanAttributes) {
        attributes[registration] = SpanAttribute.int64(Int64(truncatingIfNeeded: call.registration))
        attributes[registrationSite] = SpanAttribute.string(call.registeredAt.description)
        attributes[target] = SpanAttribute.string(call.target.rawValue)
        if let label = call.targetLabel { attributes[targetLabel] = SpanAttribute.string(label) }
    }
}
