import ArgumentParser
import Foundation
import NotifyBenchmarks
import NotifyKit

// notify-bench: NotifyKit against Foundation's NotificationCenter and the floor, in one run.
//
//   swift run -c release notify-bench [--quick] [--speed-gate] [--filter SUBSTRING] [--markdown] [--list]
//
// Exits 1 when a deterministic target is missed (see BenchVerdict), 64 for a bad command line.

if CommandLine.arguments.dropFirst().first == DashboardChild.flag {
    DashboardChild.main(Array(CommandLine.arguments.dropFirst(2)))
}

let options = BenchOptions.parseOrExit()

let profile = options.quick ? Profile.quick : Profile.full
let measurer = Measurer(profile: profile)
let workloads: [any Workload] = [
    PostWorkload(measurer: measurer),
    AddRemoveWorkload(measurer: measurer),
    ContentionWorkload(profile: profile),
    AllocationWorkload(profile: profile),
    UnwatchedCountingWorkload(measurer: measurer, profile: profile),
    HistoryCostWorkload(measurer: measurer, profile: profile),
    ProbeWorkload(measurer: measurer),
    FoundationProbeWorkload(measurer: measurer),
    FoundationCountingWorkload(measurer: measurer),
    RecordWorkload(measurer: measurer, profile: profile),
    NestedPostStackWorkload(),
    MetricsProbeWorkload(measurer: measurer, profile: profile),
    TracingProbeWorkload(measurer: measurer, profile: profile),
    MemoryWorkload(profile: profile),
    TraceWorkload(profile: profile),
    ModelWorkload(profile: profile),
    OverviewMemoryWorkload(profile: profile),
    DashboardWorkload(profile: profile),
    DashboardLoadWorkload(profile: profile),
    DashboardFollowWorkload(profile: profile),
    DemoWorkload(profile: profile),
    ExporterDrainWorkload(profile: profile),
    FilterLookWorkload(profile: profile),
    MainActorMessageWorkload(measurer: measurer, profile: profile),
    AsyncMessageWorkload(profile: profile),
    NotificationSequenceWorkload(profile: profile),
]

if options.list {
    for workload in workloads {
        for name in workload.rowNames { print(name) }
    }
    exit(0)
}
guard workloads.contains(where: { $0.selectsAny(options) }) else {
    print("notify-bench: no benchmark name contains '\(options.filter ?? "")'; --list shows them")
    exit(2)
}

print(RunHeader(profile: profile).text(markdown: options.markdown))
print()

let started = MonotonicClock.now()
var rows: [Row] = []
do {
    for workload in workloads where workload.selectsAny(options) {
        rows += try workload.run(options)
    }
    // With --speed-gate, a row that misses the gate is measured again, up to twice: load that
    // other processes put on the machine for a moment passes, a slower center does not.
    if options.speedGate {
        for index in rows.indices where rows[index].speedGateMissed == true {
            var again = options
            again.filter = rows[index].benchmark
            for _ in 0..<2 where rows[index].speedGateMissed == true {
                for workload in workloads where workload.selectsAny(again) {
                    for row in try workload.run(again) where row.benchmark == rows[index].benchmark {
                        rows[index] = row
                        rows[index].speedGateText = (row.speedGateText ?? "") + ", measured again"
                    }
                }
            }
        }
    }
} catch {
    print("notify-bench: measurement void: \(error)")
    exit(1)
}

let table = ReportTable(rows: rows)
print(options.markdown ? table.markdown() : table.plainText())
print()
print(ReportTable.notes(markdown: options.markdown))
print()
print(table.summary)
let seconds = Cell.decimal(Double(MonotonicClock.now() - started) / 1e9, places: 1)
print("finished in \(seconds) s; load average now \(RunHeader.loadAverage)")
// With --speed-gate, a speed-up that fell below what the run holds it to by more than the run's
// noise fails the run like a deterministic miss.
let gated = options.speedGate ? rows.filter { $0.speedGateMissed != nil } : []
for row in gated {
    print("speed gate: \(row.benchmark): \(row.speedGateText ?? ""): \(row.speedGateMissed == true ? "FAIL" : "pass")")
}
let judgements =
    rows.map { ($0.benchmark, $0.passed, $0.isDeterministic) }
    + gated.map { ("speed gate: " + $0.benchmark, $0.speedGateMissed.map { !$0 }, true) }
let failures = BenchVerdict.failures(judgements)
if !failures.isEmpty {
    print("notify-bench: target missed: " + failures.joined(separator: "; "))
}
exit(BenchVerdict.exitStatus(judgements))
