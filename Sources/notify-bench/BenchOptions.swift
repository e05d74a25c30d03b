import ArgumentParser

/// What the command line asked for: `notify-bench [--quick] [--speed-gate] [--filter SUBSTRING] [--markdown] [--list]`.
struct BenchOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-bench",
        abstract: "NotifyKit against Foundation's NotificationCenter and the floor, in one run.",
        discussion: """
            Exit status: 0 when every deterministic target is met (allocations per post, the model's flat \
            memory), 1 when one is missed or a measurement is void, 64 for a bad command line. Missed timing \
            targets are reported, not fatal: other processes on the machine can cause them; with \
            --speed-gate, the post and add+remove speed-ups over Foundation are fatal when they fall below \
            their target (or the floor's, where the floor misses it) by more than the run's noise.
            """)

    @Flag(help: "Fewer, shorter rounds: about a minute, for CI (a full run takes about 2 minutes).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Run only benchmarks whose name contains this (case-insensitive); several separated by '|'.",
            valueName: "substring"))
    var filter: String?

    @Flag(
        help:
            "Fail the run when a post or add+remove speed-up over Foundation falls below its target by more than the run's noise."
    )
    var speedGate = false

    @Flag(help: "Print the table as Markdown, for docs/benchmarks.md.")
    var markdown = false

    @Flag(help: "Print the benchmark names and exit.")
    var list = false

    /// Whether the benchmark called `name` should run.
    func selects(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        let lowered = name.lowercased()
        return filter.lowercased().split(separator: "|").contains { lowered.contains($0) }
    }
}
