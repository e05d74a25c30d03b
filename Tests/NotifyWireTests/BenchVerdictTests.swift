import NotifyBenchmarks
import Testing

/// notify-bench's exit status: only a missed deterministic target fails the run.
struct BenchVerdictTests {
    static let allocations = "allocations per post, 1 observer"
    static let memory = "model memory (2M events)"
    static let post = "post, 1 observer (+1k other names)"

    @Test func aMissedDeterministicTargetFailsTheRun() {
        let rows: [BenchVerdict.Judgement] = [
            (Self.post, true, false), (Self.allocations, false, true), (Self.memory, false, true),
        ]
        #expect(BenchVerdict.failures(rows) == [Self.allocations, Self.memory])
        #expect(BenchVerdict.exitStatus(rows) == 1)
    }

    @Test func missedTimingTargetsAndUnjudgedRowsDoNot() {
        let rows: [BenchVerdict.Judgement] = [
            (Self.post, false, false), (Self.allocations, true, true), (Self.memory, nil, true),
            ("contention", nil, false),
        ]
        #expect(BenchVerdict.failures(rows).isEmpty)
        #expect(BenchVerdict.exitStatus(rows) == 0)
        #expect(BenchVerdict.exitStatus([]) == 0)
    }
}
