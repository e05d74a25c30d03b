import NotifyBenchmarks
import NotifyModel
import NotifySession
import NotifyTUI
import NotifyWire

/// The process overview's memory per idle process: heap held by what the overview keeps of an
/// unattached process (its fold, its tail, its share of the exact history, as
/// ``ProcessOverview/fold(_:into:tail:memory:)`` keeps them) once it has started (the model's
/// steady workload's first events: registrations, definitions, posts) and then sent only clock
/// lines for a day, measured as the growth of ``HeapUsage`` over several such processes; and that
/// the idle day's second half adds nothing. Heap counts storage reserved and not yet touched (rings
/// that fill as posts come), so resident memory is lower: 64 idle processes (the overview's limit)
/// stay well under the 200 MB docs/dashboard.md promises.
struct OverviewMemoryWorkload: Workload {
    static let row = "overview heap per idle process"
    /// Processes folded side by side: enough to average out the allocator's rounding.
    static let processes = 8
    /// Events of the steady workload each process starts with.
    static let startEvents = 2_000
    /// Clock lines after it: one a second for a day.
    static let clockLines = 86_400
    /// Bytes per process at most: 64 processes then hold at most 192 MiB of heap.
    static let target = 3.0 * 1_048_576
    /// What the idle day's second half may add, at most.
    static let flatness = 16 * 1_024

    let profile: Profile

    var rowNames: [String] { [Self.row] }

    func run(_ options: BenchOptions) throws -> [Row] {
        guard options.selects(Self.row) else { return [] }
        progress(Self.row)
        var row = Row(Self.row)
        guard HeapUsage.selfCheck(), let before = HeapUsage.bytesInUse() else {
            row.target = "mallinfo2 unavailable or inconsistent here"
            return [row]
        }
        let configuration = ProcessOverview.foldConfiguration(InspectorConfiguration())
        let share = ProcessOverview.defaultHistoryBudget / 64
        var models = (0..<Self.processes).map { _ in InspectorState(configuration: configuration) }
        var tails = (0..<Self.processes).map { _ in EventTail() }
        var memories = (0..<Self.processes).map { _ in SessionRecorder.Memory(historyLimit: share) }
        var halfway = 0
        var batch: [TraceEvent] = []
        batch.reserveCapacity(1_024)
        for process in 0..<Self.processes {
            func flush() {
                ProcessOverview.fold(batch, into: &models[process], tail: &tails[process], memory: &memories[process])
                batch.removeAll(keepingCapacity: true)
            }
            var seq: UInt64 = 0
            var time: UInt64 = 0
            ModelBenchmark.forEachSteadyEvent(Self.startEvents) { event in
                batch.append(event)
                seq = max(seq, event.seq ?? 0)
                time = max(time, event.timestamp ?? 0)
                if batch.count == 1_024 { flush() }
            }
            flush()
            for line in 1...Self.clockLines {
                seq += 1
                time += 1_000_000_000
                batch.append(.tick(TraceTick(seq: seq, timestamp: time, viewers: 1)))
                // A quiet stream arrives a line or two at a time.
                if batch.count == 2 || line == Self.clockLines { flush() }
                if line % 60 == 0 { models[process].tick(now: time) }
                if process == Self.processes - 1, line == Self.clockLines / 2 { halfway = HeapUsage.bytesInUse() ?? 0 }
            }
        }
        let after = HeapUsage.bytesInUse() ?? before
        let perProcess = Double(after - before) / Double(Self.processes)
        row.notifyKit = .bytes(perProcess)
        let secondHalf = after - halfway
        row.expectDeterministic(
            "≤ 3 MiB, idle half ≤ 16 KiB", perProcess <= Self.target && abs(secondHalf) <= Self.flatness)
        withExtendedLifetime((models, tails, memories)) {}
        return [row]
    }
}
