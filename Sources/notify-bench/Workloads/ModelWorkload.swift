import NotifyBenchmarks
import NotifyKit
import NotifyModel

/// The inspector model's benchmarks: events folded per second on one core, whether the heap
/// stays flat over a long steady stream, and how long explaining a post and building its cascade take.
struct ModelWorkload: Workload {
    static let foldRow = "model fold (events/s, one core)"
    static let memoryRow = "model heap growth over a long steady stream"
    static let explainRow = "explain one post after 1M events"
    static let cascadeRow = "cascade of one post after 1M events"
    static let distinctNamesRow = "model fold, a new name at every registration"
    /// Per registered name (about three events, each name new to every table the fold keeps, and
    /// filed for R9's and R10's near-name lookups): 10^6 names fold in under 30 s. Linear: a
    /// name costs the same at 10^5 names and at 10^6.
    static let distinctNamesTarget = 30_000.0

    let profile: Profile

    var rowNames: [String] { [Self.foldRow, Self.memoryRow, Self.explainRow, Self.cascadeRow, Self.distinctNamesRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        if options.selects(Self.foldRow) {
            progress(Self.foldRow)
            let count = profile.name == "quick" ? 500_000 : 2_000_000
            let rate = ModelBenchmark.measureFold(eventCount: count, now: MonotonicClock.now).eventsPerSecond
            rows.append(.rate(Self.foldRow, rate, atLeast: 2_000_000))
        }
        if options.selects(Self.memoryRow) {
            let count = profile.name == "quick" ? 2_000_000 : 10_000_000
            let name = Self.memoryRow + " (\(count / 1_000_000)M events)"
            progress(name)
            let measurement = ModelBenchmark.measureMemory(
                eventCount: count, sampleEvery: count / 10, heapBytes: HeapUsage.bytesInUse)
            let heaps = measurement.samples.compactMap(\.heapBytes)
            var row = Row(name)
            if heaps.count >= 3 {
                // After the first sample (warm-up), growth must stay within 1 MiB: flat.
                let growth = Double(heaps.last! - heaps[1])
                row.notifyKit = .bytes(growth)
                row.expectDeterministic("flat (≤ 1 MiB after the first 10%)", growth <= 1_048_576)
            }
            rows.append(row)
        }
        if options.selects(Self.explainRow) {
            progress(Self.explainRow)
            let measured = ModelBenchmark.measureExplain(eventCount: 1_000_000, now: MonotonicClock.now)
            var row = Row(Self.explainRow + " (\(measured.verdicts) verdicts)")
            row.notifyKit = .nanoseconds(Double(measured.nanoseconds))
            row.expect("≤ 100 ms", measured.nanoseconds <= 100_000_000)
            rows.append(row)
        }
        if options.selects(Self.cascadeRow) {
            progress(Self.cascadeRow)
            let measured = ModelBenchmark.measureCascade(eventCount: 1_000_000, now: MonotonicClock.now)
            var row = Row(Self.cascadeRow + " (\(measured.posts) posts, \(measured.deliveries) deliveries)")
            row.notifyKit = .nanoseconds(Double(measured.nanoseconds))
            row.expect("≤ 100 ms", measured.nanoseconds <= 100_000_000)
            rows.append(row)
        }
        if options.selects(Self.distinctNamesRow) {
            let names = profile.name == "quick" ? 100_000 : 1_000_000
            let name = Self.distinctNamesRow + " (\(names / 1_000)k names, ns per name)"
            progress(name)
            let measured = ModelBenchmark.measureDistinctNames(names: names, now: MonotonicClock.now).fold
            let perName = Double(measured.nanoseconds) / Double(names)
            var row = Row(name)
            row.notifyKit = .nanoseconds(perName)
            row.expect(
                "≤ \(Cell.duration(Self.distinctNamesTarget)) (10^6 names in 30 s)", perName <= Self.distinctNamesTarget
            )
            rows.append(row)
        }
        return rows
    }
}
