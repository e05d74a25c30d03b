import Foundation
import InMemoryTracing
import NotifyKit
import NotifyTracing
import Tracing

extension Notification.Name {
    static let cart = Notification.Name("CartDidChange")
    static let stock = Notification.Name("StockDidChange")
}

/// A center with a tracing probe writing into an in-memory tracer.
final class TracingFixture: Sendable {
    let tracer = InMemoryTracer()
    let center = NotifyCenter()
    let attachment: NotifyProbeAttachment

    init(startsTraces: Bool = false) {
        attachment = center.attach(NotifyTracingProbe(tracer: tracer, startsTraces: startsTraces))
    }

    var spans: [FinishedInMemorySpan] { tracer.finishedSpans }

    /// The one finished span named `operation`; nil when there is none or more than one.
    func span(_ operation: String) -> FinishedInMemorySpan? {
        let found = spans.filter { $0.operationName == operation }
        return found.count == 1 ? found[0] : nil
    }

    func spans(_ operation: String) -> [FinishedInMemorySpan] {
        spans.filter { $0.operationName == operation }
    }
}

extension FinishedInMemorySpan {
    func string(_ key: String) -> String? {
        guard case .string(let value) = attributes[key]?.toSpanAttribute() else { return nil }
        return value
    }

    func int(_ key: String) -> Int64? {
        guard case .int64(let value) = attributes[key]?.toSpanAttribute() else { return nil }
        return value
    }
}

/// An async message about a cart, as an app declares one.
struct CartSynced: NotifyCenter.AsyncMessage {
    typealias Subject = Cart
    var items: Int
}

extension NotifyCenter.MessageIdentifier where Self == NotifyCenter.BaseMessageIdentifier<CartSynced> {
    static var cartSynced: Self { .init() }
}

final class Cart: Sendable {}

/// A main-actor message about a cart.
struct CartTapped: NotifyCenter.MainActorMessage {
    typealias Subject = Cart
}

extension NotifyCenter.MessageIdentifier where Self == NotifyCenter.BaseMessageIdentifier<CartTapped> {
    static var cartTapped: Self { .init() }
}

/// The span context a handler saw as its current one.
final class SeenContext: @unchecked Sendable {  // `lock` guards `spanIDs`
    private let lock = NSLock()
    private var spanIDs: [String] = []

    func record() {
        let id = ServiceContext.current?.inMemorySpanContext?.spanID ?? "none"
        lock.withLock { spanIDs.append(id) }
    }

    var seen: [String] { lock.withLock { spanIDs } }
}
