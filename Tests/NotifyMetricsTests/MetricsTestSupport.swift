import Foundation
import Metrics
import MetricsTestKit
@testable import NotifyKit
import NotifyMetrics

extension Notification.Name {
    static let cart = Notification.Name("CartDidChange")
    static let login = Notification.Name("LoginDidFinish")
}

/// A probe on a fresh test backend, with the readings tests make.
struct MetricsFixture {
    let metrics = TestMetrics()
    let probe: NotifyMetricsProbe

    init(_ configuration: NotifyMetricsConfiguration = NotifyMetricsConfiguration()) {
        probe = NotifyMetricsProbe(configuration: configuration, factory: metrics)
    }

    var prefix: String { probe.configuration.labelPrefix }

    func counter(_ metric: String, _ name: String, _ extra: [(String, String)] = []) -> Int64 {
        (try? metrics.expectCounter(prefix + metric, [("name", name)] + extra))?.totalValue ?? 0
    }

    func posts(_ name: String) -> Int64 { counter("posts", name) }
    func deliveries(_ name: String) -> Int64 { counter("deliveries", name) }
    func droppedTokens(_ name: String) -> Int64 { counter("dropped_tokens", name) }
    func removals(_ name: String, _ reason: ProbeEvent.RemovalReason) -> Int64 {
        counter("removals", name, [("reason", reason.rawValue)])
    }

    /// The live-registration gauge of `name`; nil when the probe never made it.
    func registrations(_ name: String) -> Double? {
        (try? metrics.expectMeter(prefix + "registrations", [("name", name)]))?.lastValue ?? nil
    }

    func handlerDurations(_ name: String) -> [Int64] {
        (try? metrics.expectTimer(prefix + "handler_duration", [("name", name)]))?.values ?? []
    }

    /// Every value the `name` dimension takes on `metric`.
    func names(of metric: String) -> Set<String> {
        Set(
            metrics.counters(label: prefix + metric).compactMap { counter in
                counter.dimensions.first { $0.0 == "name" }?.1
            })
    }
}

final class Target {
    var count = 0
    func handle(_ note: Notification) { count += 1 }
}

/// Events as a center would report them, for the cases a test cannot make a center produce.
enum SyntheticEvents {
    static func registered(
        id: UInt64, name: String?, kind: ProbeEvent.RegistrationKind = .block, preexisting: Bool = false,
        tokenDropped: Bool = false
    ) -> ProbeEvent {
        let registration = ProbeEvent.Registration(
            id: id, name: name, kind: kind, observer: nil, object: nil, target: .posting, targetLabel: nil,
            callsite: ProbeEvent.Callsite(file: #fileID, line: #line), preexisting: preexisting,
            capturesObserverStrongly: false, mainThreadOnly: false, tokenDropped: tokenDropped, registeredAt: 1)
        return ProbeEvent(timestamp: 2, thread: 1, kind: .registered(registration))
    }

    static func posted(_ name: String, message: ProbeEvent.MessageKind? = nil, thread: UInt64 = 1) -> ProbeEvent {
        let post = ProbeEvent.Post(
            postID: 1, name: name, object: nil, hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0,
            callsite: ProbeEvent.Callsite(file: #fileID, line: #line), message: message)
        return ProbeEvent(timestamp: 3, thread: thread, kind: .posted(post))
    }

    static func delivered(_ name: String, registration: UInt64, duration: UInt64, thread: UInt64 = 1) -> ProbeEvent {
        let delivery = ProbeEvent.Delivery(
            postID: 1, registration: registration, name: name, postingThread: thread, target: .posting, start: 3,
            duration: duration, wait: 0, depth: 1)
        return ProbeEvent(timestamp: 3 + duration, thread: thread, kind: .delivered(delivery))
    }
}
