import Dispatch
import Foundation
import InMemoryTracing
import NotifyKit
import NotifyTestSupport
import NotifyTracing
import Testing
import Tracing

@Suite("NotifyTracingProbe", .timeLimit(.minutes(10)))
struct NotifyTracingProbeTests {
    @Test("a post is a child of the poster's span and each inline handler a child of the post")
    func inlineTree() throws {
        let fixture = TracingFixture()
        let registeredOn: UInt = #line + 1
        let first = fixture.center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        let second = fixture.center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        let postedOn: UInt = #line + 2
        fixture.tracer.withSpan("GET /cart") { _ in
            fixture.center.post(name: .cart)
        }

        let request = try #require(fixture.span("GET /cart"))
        let post = try #require(fixture.span("post CartDidChange"))
        let deliveries = fixture.spans("deliver CartDidChange")
        #expect(post.parentSpanID == request.spanID)
        #expect(post.traceID == request.traceID)
        #expect(post.kind == .producer)
        #expect(post.string(NotifyTracingAttributes.name) == "CartDidChange")
        #expect(
            post.string(NotifyTracingAttributes.postSite)
                == "NotifyTracingTests/NotifyTracingProbeTests.swift:\(postedOn)")
        #expect(post.int(NotifyTracingAttributes.matched) == 2)
        #expect(deliveries.count == 2)
        for delivery in deliveries {
            #expect(delivery.parentSpanID == post.spanID)
            #expect(delivery.kind == .consumer)
            #expect(delivery.int(NotifyTracingAttributes.postID) == post.int(NotifyTracingAttributes.postID))
            #expect(delivery.string(NotifyTracingAttributes.target) == "posting")
            #expect(delivery.int(NotifyTracingAttributes.waitNanoseconds) == 0)
            #expect(delivery.int(NotifyTracingAttributes.threadID) == Int64(NotifyThread.current.id))
            #expect(delivery.string(NotifyTracingAttributes.threadName) == NotifyThread.current.name)
        }
        let sites = deliveries.compactMap { $0.string(NotifyTracingAttributes.registrationSite) }.sorted()
        #expect(
            sites == [
                "NotifyTracingTests/NotifyTracingProbeTests.swift:\(registeredOn)",
                "NotifyTracingTests/NotifyTracingProbeTests.swift:\(registeredOn + 1)",
            ])
        withExtendedLifetime((first, second)) {}
    }

    @Test("a post outside any trace makes no span, inline or queued, unless the probe starts traces")
    func postOutsideATrace() throws {
        let fixture = TracingFixture()
        let seen = SeenContext()
        let queue = DispatchQueue(label: "untraced")
        let inline = fixture.center.addObserver(forName: .cart, object: nil, queue: nil) { _ in seen.record() }
        let queued = fixture.center.addObserver(forName: .cart, object: nil, deliverOn: .dispatchQueue(queue)) { _ in
            seen.record()
        }
        fixture.center.post(name: .cart)
        try #require(eventually { seen.seen.count == 2 })
        #expect(fixture.spans.isEmpty)
        #expect(seen.seen == ["none", "none"])

        let starting = TracingFixture(startsTraces: true)
        let token = starting.center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        starting.center.post(name: .cart)
        let post = try #require(starting.span("post CartDidChange"))
        #expect(post.parentSpanID == nil)
        #expect(try #require(starting.span("deliver CartDidChange")).parentSpanID == post.spanID)
        withExtendedLifetime((inline, queued, token)) {}
    }

    @Test("the handler runs in its delivery's context: its own spans and posts are the delivery's children")
    func contextInsideHandler() throws {
        let fixture = TracingFixture()
        let seen = SeenContext()
        let tracer = fixture.tracer
        let center = fixture.center
        let cart = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in
            seen.record()
            tracer.withSpan("write cart to database") { _ in }
            center.post(name: .stock)
        }
        let stock = center.addObserver(forName: .stock, object: nil, queue: nil) { _ in }
        tracer.withSpan("PUT /cart") { _ in center.post(name: .cart) }

        let delivery = try #require(fixture.span("deliver CartDidChange"))
        #expect(seen.seen == [delivery.spanID])
        #expect(try #require(fixture.span("write cart to database")).parentSpanID == delivery.spanID)
        let nested = try #require(fixture.span("post StockDidChange"))
        #expect(nested.parentSpanID == delivery.spanID)
        #expect(nested.int(NotifyTracingAttributes.parentPostID) == delivery.int(NotifyTracingAttributes.postID))
        #expect(try #require(fixture.span("deliver StockDidChange")).parentSpanID == nested.spanID)
        // The poster's context is back once the post returns.
        #expect(ServiceContext.current == nil)
        withExtendedLifetime((cart, stock)) {}
    }

    @Test("a handler on a dispatch queue waits in a hop under the post and runs under the hop")
    func dispatchQueueHop() throws {
        let fixture = TracingFixture()
        let seen = SeenContext()
        let queue = DispatchQueue(label: "cart-sync")
        let token = fixture.center.addObserver(forName: .cart, object: nil, deliverOn: .dispatchQueue(queue)) { _ in
            seen.record()
        }
        fixture.tracer.withSpan("POST /checkout") { _ in
            fixture.center.post(name: .cart)
        }
        try #require(eventually { fixture.span("deliver CartDidChange") != nil })

        let request = try #require(fixture.span("POST /checkout"))
        let post = try #require(fixture.span("post CartDidChange"))
        let hop = try #require(fixture.span("hop dispatch-queue"))
        let delivery = try #require(fixture.span("deliver CartDidChange"))
        #expect(post.parentSpanID == request.spanID)
        #expect(hop.parentSpanID == post.spanID)
        #expect(delivery.parentSpanID == hop.spanID)
        #expect(delivery.traceID == request.traceID)
        #expect(hop.string(NotifyTracingAttributes.targetLabel) == "cart-sync")
        #expect(delivery.string(NotifyTracingAttributes.target) == "dispatch-queue")
        #expect(delivery.string(NotifyTracingAttributes.targetLabel) == "cart-sync")
        #expect(delivery.int(NotifyTracingAttributes.threadID) != Int64(NotifyThread.current.id))
        #expect((delivery.int(NotifyTracingAttributes.waitNanoseconds) ?? -1) >= 0)
        #expect(seen.seen == [delivery.spanID])
        withExtendedLifetime(token) {}
    }

    @Test("a hop whose registration ends before its turn ends, marked abandoned, and no handler span is made")
    func abandonedHop() throws {
        let fixture = TracingFixture()
        let queue = DispatchQueue(label: "paused")
        let token = fixture.center.addObserver(forName: .cart, object: nil, deliverOn: .dispatchQueue(queue)) { _ in }
        queue.suspend()
        fixture.tracer.withSpan("DELETE /cart") { _ in fixture.center.post(name: .cart) }
        token.cancel()
        queue.resume()
        try #require(eventually { fixture.span("hop dispatch-queue") != nil })
        let hop = try #require(fixture.span("hop dispatch-queue"))
        #expect(hop.attributes[NotifyTracingAttributes.abandoned]?.toSpanAttribute() == .bool(true))
        #expect(fixture.spans("deliver CartDidChange").isEmpty)
        #expect(fixture.tracer.activeSpans.isEmpty)
    }

    @Test("an AsyncMessage observer's call waits in a task hop and runs in its delivery's context")
    func asyncMessageHop() async throws {
        let fixture = TracingFixture()
        let seen = SeenContext()
        let cart = Cart()
        let tracer = fixture.tracer
        let token = fixture.center.addObserver(of: cart, for: .cartSynced) { (_: CartSynced) in
            seen.record()
            tracer.withSpan("push to warehouse") { _ in }
        }
        tracer.withSpan("POST /cart/sync") { _ in
            fixture.center.post(CartSynced(items: 3), subject: cart)
        }
        try #require(await eventually { fixture.span("push to warehouse") != nil })
        try #require(await eventually { fixture.span("deliver \(String(reflecting: CartSynced.self))") != nil })

        let name = String(reflecting: CartSynced.self)
        let request = try #require(fixture.span("POST /cart/sync"))
        let post = try #require(fixture.span("post \(name)"))
        let hop = try #require(fixture.span("hop task"))
        let delivery = try #require(fixture.span("deliver \(name)"))
        #expect(post.parentSpanID == request.spanID)
        #expect(post.string(NotifyTracingAttributes.message) == "async")
        #expect(hop.parentSpanID == post.spanID)
        #expect(delivery.parentSpanID == hop.spanID)
        #expect(delivery.string(NotifyTracingAttributes.target) == "task")
        #expect(seen.seen == [delivery.spanID])
        #expect(try #require(fixture.span("push to warehouse")).parentSpanID == delivery.spanID)
        withExtendedLifetime(token) {}
    }

    @Test("a MainActorMessage observer runs inside post, in a delivery span under the post's")
    @MainActor
    func mainActorMessage() throws {
        let fixture = TracingFixture()
        let seen = SeenContext()
        let token = fixture.center.addObserver(of: Cart.self, for: .cartTapped) { (_: CartTapped) in seen.record() }
        fixture.tracer.withSpan("tap") { _ in fixture.center.post(CartTapped()) }

        let name = String(reflecting: CartTapped.self)
        let post = try #require(fixture.span("post \(name)"))
        let delivery = try #require(fixture.span("deliver \(name)"))
        #expect(post.parentSpanID == fixture.span("tap")?.spanID)
        #expect(post.string(NotifyTracingAttributes.message) == "main")
        #expect(delivery.parentSpanID == post.spanID)
        #expect(delivery.string(NotifyTracingAttributes.target) == "posting")
        #expect(seen.seen == [delivery.spanID])
        withExtendedLifetime(token) {}
    }

    @Test("with no tracer bootstrapped (NoOpTracer) the handler runs in the poster's own context")
    func noTracer() {
        let center = NotifyCenter()
        let tracer = InMemoryTracer()
        let seen = SeenContext()
        let attachment = center.attach(NotifyTracingProbe(tracer: NoOpTracer(), startsTraces: true))
        let token = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in seen.record() }
        let request = tracer.withSpan("GET /cart") { span in
            center.post(name: .cart)
            return span.context.inMemorySpanContext?.spanID
        }
        #expect(seen.seen == [request ?? "missing"])
        #expect(tracer.finishedSpans.map(\.operationName) == ["GET /cart"])
        withExtendedLifetime((attachment, token)) {}
    }

    @Test("once detached, posts make no spans")
    func detached() {
        let fixture = TracingFixture()
        let token = fixture.center.addObserver(forName: .cart, object: nil, queue: nil) { _ in }
        fixture.attachment.detach()
        fixture.tracer.withSpan("GET /cart") { _ in fixture.center.post(name: .cart) }
        #expect(fixture.spans.map(\.operationName) == ["GET /cart"])
        withExtendedLifetime(token) {}
    }
}
