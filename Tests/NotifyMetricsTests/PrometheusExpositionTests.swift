import Foundation
import NotifyKit
import NotifyMetrics
import Prometheus
import Testing

/// NotifyMetrics read back from a real Prometheus registry (swift-prometheus): the labels carry
/// the suffixes Prometheus expects, and handler durations of a few hundred microseconds land in
/// buckets that tell them apart, where the backend's default buckets (from 5 ms) put every
/// handler in the first one.
@Suite("NotifyMetrics in Prometheus")
struct PrometheusExpositionTests {
    /// Each sample line of the exposition: `name{labels} value`, keyed by `name{labels}`.
    static func samples(_ registry: PrometheusCollectorRegistry) -> [String: Double] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        var samples: [String: Double] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// Spins for `microseconds`: a handler of known duration.
    static func spin(microseconds: UInt64) {
        let end = DispatchTime.now().uptimeNanoseconds + microseconds * 1_000
        while DispatchTime.now().uptimeNanoseconds < end {}
    }

    @Test("counters end in _total and the timer in _seconds; 300 µs handlers fill the buckets above 250 µs only")
    func expositionReadsRight() throws {
        let registry = PrometheusCollectorRegistry()
        let configuration = NotifyMetricsConfiguration.prometheus(dimensions: [("center", "shop")])
        let factory = PrometheusMetricsFactory(registry: registry)
        var buckets = factory
        buckets.durationHistogramBuckets[configuration.handlerDurationLabel] =
            NotifyMetricsConfiguration.handlerDurationBuckets
        let center = NotifyCenter()
        let attachment = center.attach(NotifyMetricsProbe(configuration: configuration, factory: buckets))
        defer { attachment.detach() }
        let name = Notification.Name("CartDidChange")
        let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in Self.spin(microseconds: 300) }
        for _ in 0..<10 { center.post(name: name, object: nil) }
        center.removeObserver(token)

        let samples = Self.samples(registry)
        let labels = #"center="shop",name="CartDidChange""#
        #expect(samples["notify_posts_total{\(labels)}"] == 10, "\(samples.keys.sorted())")
        #expect(samples["notify_deliveries_total{\(labels)}"] == 10)
        #expect(samples["notify_removals_total{\(labels),reason=\"explicit\"}"] == 1)
        #expect(samples["notify_registrations{\(labels)}"] == 0)
        #expect(samples.keys.allSatisfy { !$0.hasPrefix("notify_posts{") && !$0.hasPrefix("notify_handler_duration{") })

        // Cumulative buckets, by their upper bound in seconds.
        let prefix = "notify_handler_duration_seconds_bucket{\(labels),le=\""
        var counts: [(bound: Double, count: Double)] = []
        for (key, value) in samples where key.hasPrefix(prefix) {
            let bound = key.dropFirst(prefix.count).dropLast(2)
            counts.append((bound == "+Inf" ? .infinity : try #require(Double(bound)), value))
        }
        counts.sort { $0.bound < $1.bound }
        #expect(counts.count == NotifyMetricsConfiguration.handlerDurationBuckets.count + 1)
        #expect(counts.first?.bound == 0.000_001)
        #expect(counts.filter { $0.bound <= 0.000_25 }.allSatisfy { $0.count == 0 }, "\(counts)")
        #expect(counts.last?.count == 10)
        // Even on a loaded machine some of the ten end within 5 ms: below the default first bucket.
        #expect((counts.first { $0.bound == 0.005 }?.count ?? 0) >= 1, "\(counts)")
        #expect(samples["notify_handler_duration_seconds_count{\(labels)}"] == 10)
    }
}
