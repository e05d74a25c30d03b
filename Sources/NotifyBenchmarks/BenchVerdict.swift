/// Whether a notify-bench run fails. A missed target fails it only on rows whose numbers the
/// machine's load cannot change (allocation counts, memory growth); missed timing targets are
/// reported, not fatal, because other processes on a shared machine cause them.
package enum BenchVerdict {
    /// One row of the report: its name, whether its target was met (nil: not judged), and whether
    /// its measurement is deterministic.
    package typealias Judgement = (benchmark: String, passed: Bool?, deterministic: Bool)

    /// The deterministic rows that missed their target, in order.
    package static func failures(_ rows: [Judgement]) -> [String] {
        rows.filter { $0.deterministic && $0.passed == false }.map(\.benchmark)
    }

    /// The run's exit status: 0, or 1 when any deterministic row missed its target.
    package static func exitStatus(_ rows: [Judgement]) -> Int32 {
        failures(rows).isEmpty ? 0 : 1
    }
}
