import Foundation
import NotifyKit
import NotifyTraceApp

/// What the exporter's thread spends per event to drain its ring and encode the lines, apart from
/// the sockets: posts and deliveries with a name, an object and a callsite, drained a batch at a
/// time, straight from the records and (for comparison) through the general path.
struct ExporterDrainWorkload: Workload {
    static let recordsRow = "exporter: ns per event, drain to bytes"
    static let eventsRow = "exporter: ns per event, drain to bytes through ProbeEvent and TraceEvent"
    /// Under 40% of the general path's cost (about 410 ns per event when this row was added).
    static let targetNanoseconds = 150.0
    static let postsPerBatch = 4_000

    let profile: Profile

    var rowNames: [String] { [Self.recordsRow, Self.eventsRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.recordsRow) {
            progress(Self.recordsRow)
            let ns = try Self.nanosecondsPerEvent(.records, batches: profile.name == "quick" ? 9 : 31)
            var row = Row(Self.recordsRow)
            row.notifyKit = .nanoseconds(ns)
            row.expect("≤ \(Cell.decimal(Self.targetNanoseconds, places: 0)) ns", ns <= Self.targetNanoseconds)
            rows.append(row)
        }
        if options.selects(Self.eventsRow) {
            progress(Self.eventsRow)
            let ns = try Self.nanosecondsPerEvent(.events, batches: profile.name == "quick" ? 9 : 31)
            var row = Row(Self.eventsRow)
            row.notifyKit = .nanoseconds(ns)
            rows.append(row)
        }
        return rows
    }

    /// The median over `batches` of a batch's drain time ÷ its events.
    private static func nanosecondsPerEvent(_ path: TraceDrainMeter.Path, batches: Int) throws -> Double {
        let center = NotifyCenter(label: "bench-exporter")
        let ring = EventRing(capacity: 1 << 15)
        let names = (0..<8).map { Notification.Name("BenchExporter.name\($0)") }
        let objects = (0..<4).map { _ in NSObject() }
        var tokens: [NotifyToken] = []
        for name in names { tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in }) }
        let attachment = center.attach(ring)
        defer {
            attachment.detach()
            for token in tokens { center.removeObserver(token) }
        }
        var meter = TraceDrainMeter(path: path)
        var samples: [Double] = []
        for batch in 0...batches {
            for index in 0..<postsPerBatch {
                center.post(name: names[index & 7], object: index & 1 == 0 ? objects[index & 3] : nil)
            }
            let start = MonotonicClock.now()
            let drained = meter.drain(ring)
            let elapsed = MonotonicClock.now() - start
            guard drained.events >= 2 * postsPerBatch, drained.bytes > 0 else {
                throw DeliveryMismatch(
                    benchmark: recordsRow, center: "NotifyKitCenter",
                    detail: "drained \(drained.events) events for \(postsPerBatch) posts")
            }
            // The first batch introduces every thread, object and callsite.
            if batch > 0 { samples.append(Double(elapsed) / Double(drained.events)) }
        }
        return samples.sorted()[samples.count / 2]
    }
}
