import Metrics
import NotifyKit

/// The metric handles of one `name` dimension value: a notification name, a typed message type,
/// the fold of names beyond the cap, or registrations of every name. Made once, then only used.
final class NameMetrics: Sendable {
    let posts: Counter
    let deliveries: Counter
    let handlerDuration: Metrics.Timer
    /// Live registrations: swift-metrics' gauge that goes up and down.
    let registrations: Meter
    /// One per ``ProbeEvent/RemovalReason``, in `allCases` order.
    let removals: [Counter]
    let droppedTokens: Counter

    init(name: String, configuration: NotifyMetricsConfiguration, factory: any MetricsFactory) {
        let dimensions = configuration.dimensions + [("name", name)]
        posts = Counter(label: configuration.postsLabel, dimensions: dimensions, factory: factory)
        deliveries = Counter(label: configuration.deliveriesLabel, dimensions: dimensions, factory: factory)
        handlerDuration = Metrics.Timer(
            label: configuration.handlerDurationLabel, dimensions: dimensions, factory: factory)
        registrations = Meter(label: configuration.registrationsLabel, dimensions: dimensions, factory: factory)
        removals = ProbeEvent.RemovalReason.allCases.map { reason in
            Counter(
                label: configuration.removalsLabel, dimensions: dimensions + [("reason", reason.rawValue)],
                factory: factory)
        }
        droppedTokens = Counter(label: configuration.droppedTokensLabel, dimensions: dimensions, factory: factory)
    }

    func removal(_ reason: ProbeEvent.RemovalReason) -> Counter {
        removals[ProbeEvent.RemovalReason.allCases.firstIndex(of: reason)!]
    }
}
