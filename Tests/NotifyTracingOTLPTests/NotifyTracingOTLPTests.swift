import Dispatch
import Foundation
import NotifyKit
import NotifyTestSupport
import NotifyTracing
import OTel
import ServiceLifecycle
import Synchronization
import Testing
import Tracing

extension Notification.Name {
    fileprivate static let cart = Notification.Name("CartDidChange")
}

/// The tracing probe's spans through swift-otel's OTLP/HTTP exporter (JSON encoding) to a receiver
/// on loopback, read back as a collector would receive them.
@Suite("NotifyTracingProbe through swift-otel's OTLP exporter", .timeLimit(.minutes(10)))
struct NotifyTracingOTLPTests {
    @Test("a request's post, its inline and queued handlers and the queue hop arrive as one span tree")
    func spanTreeArrives() async throws {
        let receiver = try LoopbackOTLPReceiver()
        defer { receiver.stop() }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "notifytop-tests"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.otlpExporter.protocol = .httpJSON
        configuration.traces.otlpExporter.endpoint = receiver.endpoint
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(50)
        let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
        let exporting = Task { try await service.run() }

        let center = NotifyCenter()
        let attachment = center.attach(NotifyTracingProbe(tracer: tracer))
        let queue = DispatchQueue(label: "cart-sync")
        let handled = Handled()
        let inline = center.addObserver(forName: .cart, object: nil, queue: nil) { _ in
            tracer.withSpan("read cart") { _ in }
        }
        let queued = center.addObserver(forName: .cart, object: nil, deliverOn: .dispatchQueue(queue)) { _ in
            handled.set()
        }
        tracer.withSpan("GET /cart") { _ in center.post(name: .cart) }
        try #require(await eventually { handled.isSet })

        let names = ["GET /cart", "post CartDidChange", "read cart", "hop dispatch-queue"]
        let arrived = await eventually {
            let spans = ExportedSpan.all(in: receiver.receivedBodies)
            return names.allSatisfy { name in spans.contains { $0.name == name } }
                && spans.count { $0.name == "deliver CartDidChange" } == 2
        }
        exporting.cancel()
        _ = try? await exporting.value
        withExtendedLifetime((inline, queued, attachment)) {}
        try #require(arrived, "received: \(ExportedSpan.all(in: receiver.receivedBodies).map(\.name))")

        let spans = ExportedSpan.all(in: receiver.receivedBodies)
        #expect(Set(receiver.receivedPaths) == ["/v1/traces"])
        let byName = Dictionary(spans.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let request = try #require(byName["GET /cart"])
        let post = try #require(byName["post CartDidChange"])
        let hop = try #require(byName["hop dispatch-queue"])
        let deliveries = spans.filter { $0.name == "deliver CartDidChange" }
        #expect(spans.allSatisfy { $0.traceID == request.traceID })
        #expect(post.parentSpanID == request.spanID)
        #expect(hop.parentSpanID == post.spanID)
        let inlineDelivery = try #require(deliveries.first { $0.parentSpanID == post.spanID })
        let queuedDelivery = try #require(deliveries.first { $0.parentSpanID == hop.spanID })
        #expect(byName["read cart"]?.parentSpanID == inlineDelivery.spanID)
        #expect(post.attributes[NotifyTracingAttributes.name] as? String == "CartDidChange")
        #expect(queuedDelivery.attributes[NotifyTracingAttributes.targetLabel] as? String == "cart-sync")
        #expect(
            (inlineDelivery.attributes[NotifyTracingAttributes.registrationSite] as? String)?
                .hasPrefix("NotifyTracingOTLPTests/NotifyTracingOTLPTests.swift:") == true)
    }
}

/// Set once the queued handler has run.
private final class Handled: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .releasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
