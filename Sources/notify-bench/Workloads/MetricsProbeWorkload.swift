import Foundation
import Metrics
import NotifyKit
import NotifyMetrics
import Synchronization

/// What a `NotifyMetricsProbe` costs a NotifyKit post, on a backend that only counts (as a
/// Prometheus counter does, with an atomic add): its time as probed ÷ unprobed, beside a probe
/// that does nothing, which is the center's own price for building events; and its allocations
/// per post beyond that empty probe's.
struct MetricsProbeWorkload: Workload {
    let measurer: Measurer
    let profile: Profile

    static let timeRow = "NotifyMetricsProbe ÷ unprobed post, 1 observer"
    static let allocationRow = "allocations per post, NotifyMetricsProbe attached, 1 observer"
    /// The probe's own work (two lock-free lookups, three metric updates) may add this much to
    /// the empty probe's factor: the price of events the center builds for any probe is not the
    /// metrics probe's to answer for.
    static let maxFactorOverEmptyProbe = 1.5

    var rowNames: [String] { [Self.timeRow, Self.allocationRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.timeRow) { rows.append(try timeRow()) }
        if options.selects(Self.allocationRow) { rows.append(try allocationRow()) }
        return rows
    }

    private func timeRow() throws -> Row {
        let name = Self.timeRow
        progress(name)
        let fixture = PostFixture<NotifyKitCenter>(observers: 1)
        let unprobed = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        let emptyProbed = probed(fixture, EmptyProbe())
        let backend = CountingMetrics()
        let metricsProbed = probed(fixture, NotifyMetricsProbe(factory: backend))
        try fixture.verify(posts: unprobed.operations + emptyProbed.operations + metricsProbed.operations, name)
        try backend.verify(posts: metricsProbed.operations, name)

        var row = Row(name)
        let factor = metricsProbed.nsPerOp / unprobed.nsPerOp
        let emptyFactor = emptyProbed.nsPerOp / unprobed.nsPerOp
        row.notifyKit = .factorOf(factor, numerator: metricsProbed.nsPerOp, denominator: unprobed.nsPerOp)
        // The floor column holds the empty probe's factor, the bar the target is set from.
        row.floor = .factorOf(emptyFactor, numerator: emptyProbed.nsPerOp, denominator: unprobed.nsPerOp)
        row.expect(
            "≤ \(Cell.decimal(Self.maxFactorOverEmptyProbe, places: 1))× an empty probe's (floor column)",
            factor <= emptyFactor * Self.maxFactorOverEmptyProbe)
        return row
    }

    private func probed(_ fixture: PostFixture<NotifyKitCenter>, _ probe: any NotifyProbe) -> Measurement {
        let attachment = fixture.center.center.attach(probe)
        defer { attachment.detach() }
        return measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
    }

    private func allocationRow() throws -> Row {
        let name = Self.allocationRow
        progress(name)
        let empty = try allocationsPerPost(EmptyProbe(), name)
        let backend = CountingMetrics()
        let metrics = try allocationsPerPost(NotifyMetricsProbe(factory: backend), name)
        var row = Row(name)
        row.notifyKit = .allocations(metrics)
        row.floor = .allocations(empty)
        row.expectDeterministic("none beyond an empty probe's (floor column)", metrics <= empty)
        return row
    }

    /// Allocations per post on the posting thread with `probe` attached, after a warm-up.
    private func allocationsPerPost(_ probe: any NotifyProbe, _ benchmark: String) throws -> Double {
        let fixture = PostFixture<NotifyKitCenter>(observers: 1)
        let attachment = fixture.center.center.attach(probe)
        defer { attachment.detach() }
        return try fixture.allocationsPerPost(profile.allocationPosts, benchmark)
    }
}

/// A probe that does nothing: what the center's events cost on their own.
private final class EmptyProbe: NotifyProbe {
    func receive(_ event: ProbeEvent) {}
}

/// A swift-metrics backend whose counters add atomically and whose other metrics do nothing.
private final class CountingMetrics: MetricsFactory {
    private let made = Mutex<[String: AtomicCounter]>([:])

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let key = label + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        return made.withLock { made in
            if let counter = made[key] { return counter }
            let counter = AtomicCounter()
            made[key] = counter
            return counter
        }
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        NOOPMetricsHandler.instance
    }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { NOOPMetricsHandler.instance }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    /// Checks that the probe counted every post, under whichever name label the target took (the
    /// fixture's 1,000 other names come first, so with the default cap it folds into `other`).
    func verify(posts: Int, _ benchmark: String) throws(DeliveryMismatch) {
        let counted = made.withLock { made in
            made.filter { $0.key.hasPrefix("notify_posts|") }.values.reduce(0) {
                $0 + $1.value.load(ordering: .relaxed)
            }
        }
        guard counted == Int64(posts) else {
            throw DeliveryMismatch(
                benchmark: benchmark, center: "NotifyKitCenter",
                detail: "the metrics probe counted \(counted) of \(posts) posts")
        }
    }
}

private final class AtomicCounter: CounterHandler {
    let value = Atomic<Int64>(0)
    func increment(by amount: Int64) { value.wrappingAdd(amount, ordering: .relaxed) }
    func reset() { value.store(0, ordering: .relaxed) }
}
