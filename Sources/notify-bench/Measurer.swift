import NotifyKit

/// The result of timing one operation.
struct Measurement {
    /// The median over the timed rounds.
    var nsPerOp: Double
    /// Every operation run, calibration and warm-up included: what handlers should have counted.
    var operations: Int
}

/// Times an operation: calibrates a round to about `Profile.roundNanos`, runs the warm-up rounds,
/// then the timed rounds, and reports the median nanoseconds per operation.
struct Measurer {
    let profile: Profile

    /// - Parameters:
    ///   - maxOpsPerRound: A cap on a round's operations, for workloads whose state grows per operation.
    ///   - beforeEachRound: Untimed work before every round (calibration included), such as a reset.
    ///   - body: Performs the operation `n` times.
    func measure(
        maxOpsPerRound: Int = .max, beforeEachRound: () -> Void = {}, _ body: (_ n: Int) -> Void
    ) -> Measurement {
        var operations = 0
        func timedRound(_ n: Int) -> UInt64 {
            beforeEachRound()
            let start = MonotonicClock.now()
            body(n)
            let elapsed = MonotonicClock.now() &- start
            operations += n
            return elapsed
        }

        // Calibration, which also warms caches and lazily built state.
        var n = 1
        var elapsed = timedRound(n)
        while elapsed < profile.roundNanos / 4 && n < maxOpsPerRound {
            let growth = elapsed == 0 ? 100 : min(100, max(2, Int(profile.roundNanos / 2 / elapsed)))
            n = min(maxOpsPerRound, n * growth)
            elapsed = timedRound(n)
        }
        let estimate = Double(max(elapsed, 1)) / Double(n)
        n = max(1, min(maxOpsPerRound, Int(Double(profile.roundNanos) / estimate)))

        for _ in 0..<profile.warmupRounds { _ = timedRound(n) }
        let samples = (0..<profile.rounds).map { _ in Double(timedRound(n)) / Double(n) }
        return Measurement(nsPerOp: samples.median, operations: operations)
    }
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle values for an even count); 0 when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
