/// How long and how often each benchmark measures: the full run or the `--quick` smoke test.
struct Profile {
    let name: String
    /// Untimed rounds after calibration.
    let warmupRounds: Int
    /// Timed rounds; the report shows their median.
    let rounds: Int
    /// The length one round aims for.
    let roundNanos: UInt64
    /// Posts per round measured for allocations.
    let allocationPosts: Int
    /// Alternating one-thread and two-thread trials in the contention benchmark.
    let contentionTrials: Int
    /// The length a one-thread contention trial aims for.
    let contentionTrialNanos: UInt64
    /// Repetitions of each memory measurement; the report shows the median.
    let memoryRepetitions: Int

    static let full = Profile(
        name: "full", warmupRounds: 2, rounds: 11, roundNanos: 20_000_000, allocationPosts: 20_000,
        contentionTrials: 11, contentionTrialNanos: 80_000_000, memoryRepetitions: 3)

    static let quick = Profile(
        name: "quick", warmupRounds: 1, rounds: 5, roundNanos: 4_000_000, allocationPosts: 2_000,
        contentionTrials: 3, contentionTrialNanos: 15_000_000, memoryRepetitions: 1)

    var summary: String {
        "\(name): \(warmupRounds) warm-up + \(rounds) timed rounds of ~\(roundNanos / 1_000_000) ms, median ns/op"
    }
}
