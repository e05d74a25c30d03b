public import NotifyKit
import Synchronization
public import Tracing

/// A probe that puts a center's posts and handlers into the app's traces:
/// `let attachment = center.attach(NotifyTracingProbe())`.
///
/// - A post opens a span, `post <name>`, a child of the poster's `ServiceContext.current`, that
///   ends when `post` returns. A post made outside any trace is left alone unless
///   ``startsTraces`` is set.
/// - Each handler runs inside a span of its own, `deliver <name>`, made the handler's
///   `ServiceContext.current`: what it logs with a tracing-aware logger, the spans it starts and
///   the requests it makes join the poster's trace, and posts it makes are children of its span.
/// - A handler handed to a queue, a thread, the main queue or an `AsyncMessage` observer's task
///   first waits in a span `hop <target>`, a child of the post's span, from the hand-off until the
///   handler starts; the handler's span is a child of that hop. The post's span may end first.
///   A hop whose handler never runs (the registration ended first) ends, marked abandoned, when
///   the hand-off is released.
///
/// Spans carry the ``NotifyTracingAttributes`` keys: post id, name and site; for a handler its
/// registration's id and site, where it ran (target, queue label, thread id and name) and how long
/// it waited. Attach one probe per center; a center calls only the first context probe attached.
/// The probe takes events from no ring and keeps no state of its own between posts.
public final class NotifyTracingProbe: NotifyContextProbe, Sendable {
    private let tracer: any Tracer
    /// Whether a post made outside any trace starts one.
    public let startsTraces: Bool
    /// True for swift-distributed-tracing's `NoOpTracer` (nothing bootstrapped): no span would be
    /// kept, so posts and handlers run as they would unprobed.
    private let isInert: Bool

    /// - Parameters:
    ///   - tracer: Where spans go; by default the one given to `InstrumentationSystem.bootstrap`
    ///     (bootstrap first: with none, the default is a `NoOpTracer`, and the probe does nothing).
    ///   - startsTraces: Whether a post made with no `ServiceContext.current` (outside any request
    ///     or span) starts a trace of its own. By default it does not: its handlers run as they
    ///     would unprobed, and the post costs the probe one task-local read.
    public init(tracer: any Tracer = InstrumentationSystem.tracer, startsTraces: Bool = false) {
        self.tracer = tracer
        self.startsTraces = startsTraces
        isInert = tracer is NoOpTracer
    }

    /// Events are not needed: spans are made around posts and handlers as they run.
    public func receive(_ event: ProbeEvent) {}

    public func withinPost(_ post: NotifyPostScope, _ body: () -> Void) {
        guard let parent = parentContext() else { return body() }
        let span = tracer.startSpan("post \(post.name)", context: parent, ofKind: .producer)
        if span.isRecording { span.updateAttributes { NotifyTracingAttributes.describe(post, in: &$0) } }
        ServiceContext.$current.withValue(span.context) { body() }
        span.end()
    }

    public func handOff(_ hop: NotifyHandlerCall) -> (any Sendable)? {
        guard let parent = parentContext() else { return nil }
        let span = tracer.startSpan("hop \(hop.target.rawValue)", context: parent, ofKind: .internal)
        if span.isRecording { span.updateAttributes { NotifyTracingAttributes.describe(hop: hop, in: &$0) } }
        return CarriedHop(span: span)
    }

    public func withinDelivery(_ call: NotifyHandlerCall, resuming: (any Sendable)?, _ body: () -> Bool) -> Bool {
        guard let span = startDelivery(call, resuming: resuming) else { return body() }
        let delivered = ServiceContext.$current.withValue(span.context) { body() }
        if !delivered && span.isRecording { span.attributes[NotifyTracingAttributes.observerGone] = true }
        span.end()
        return delivered
    }

    public func withinDelivery(
        _ call: NotifyHandlerCall, resuming: (any Sendable)?, _ body: () async -> Void
    ) async {
        guard let span = startDelivery(call, resuming: resuming) else { return await body() }
        await ServiceContext.$current.withValue(span.context) { await body() }
        span.end()
    }

    /// The context a post's or handler's span is a child of; nil when it gets none.
    private func parentContext() -> ServiceContext? {
        guard !isInert else { return nil }
        return ServiceContext.current ?? (startsTraces ? .topLevel : nil)
    }

    /// Ends the hop the handler waited in, if any, and opens the handler's span under it.
    private func startDelivery(_ call: NotifyHandlerCall, resuming: (any Sendable)?) -> (any Span)? {
        let parent: ServiceContext
        if let hop = resuming as? CarriedHop {
            hop.end()
            parent = hop.span.context
        } else {
            guard let context = parentContext() else { return nil }
            parent = context
        }
        let span = tracer.startSpan("deliver \(call.name)", context: parent, ofKind: .consumer)
        if span.isRecording { span.updateAttributes { NotifyTracingAttributes.describe(call, in: &$0) } }
        return span
    }
}

/// A hand-off's open hop span, carried to the handler's thread or task. A hand-off that never
/// runs (its registration ended first, its mailbox discarded) ends the hop when it is released.
private final class CarriedHop: Sendable {
    let span: any Span
    private let ended = Atomic<Bool>(false)

    init(span: any Span) { self.span = span }

    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        span.end()
    }

    deinit {
        guard !ended.load(ordering: .acquiring) else { return }
        if span.isRecording { span.attributes[NotifyTracingAttributes.abandoned] = true }
        span.end()
    }
}
