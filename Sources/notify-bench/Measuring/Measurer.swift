import NotifyKit

/// The result of timing one operation.
struct Measurement {
    /// The median over the timed rounds.
    var nsPerOp: Double
    /// Every operation run, calibration and warm-up included: what handlers should have counted.
    var operations: Int
    /// The run's noise on this measurement: the interquartile range of the timed rounds ÷ their median.
    var noise: Double = 0
}

/// Times an operation: calibrates a round to about `Profile.roundNanos`, runs the warm-up rounds,
/// then the timed rounds, and reports the median nanoseconds per operation. A timed round during
/// which another process took the CPU (see ``RunQueueWait``) is run again.
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
        /// The round's nanoseconds, and whether another process took the CPU during it.
        func timedRound(_ n: Int) -> (elapsed: UInt64, disturbed: Bool) {
            beforeEachRound()
            let waitBefore = RunQueueWait.nanoseconds()
            let start = MonotonicClock.now()
            body(n)
            let elapsed = MonotonicClock.now() &- start
            operations += n
            let waited = (RunQueueWait.nanoseconds() ?? 0) &- (waitBefore ?? 0)
            return (elapsed, !RunQueueWait.isNegligible(waited, wall: elapsed))
        }

        // Calibration, which also warms caches and lazily built state.
        var n = 1
        var elapsed = timedRound(n).elapsed
        while elapsed < profile.roundNanos / 4 && n < maxOpsPerRound {
            let growth = elapsed == 0 ? 100 : min(100, max(2, Int(profile.roundNanos / 2 / elapsed)))
            n = min(maxOpsPerRound, n * growth)
            elapsed = timedRound(n).elapsed
        }
        let estimate = Double(max(elapsed, 1)) / Double(n)
        n = max(1, min(maxOpsPerRound, Int(Double(profile.roundNanos) / estimate)))

        for _ in 0..<profile.warmupRounds { _ = timedRound(n) }
        // A round during which the thread waited for a CPU is run again, up to as many extra rounds.
        var samples: [Double] = []
        var retries = 0
        while samples.count < profile.rounds {
            let round = timedRound(n)
            if round.disturbed && retries < profile.rounds {
                retries += 1
                continue
            }
            samples.append(Double(round.elapsed) / Double(n))
        }
        return Measurement(nsPerOp: samples.median, operations: operations, noise: samples.relativeSpread)
    }
}

extension Array where Element == Double {
    /// The interquartile range ÷ the median (with five samples, second highest − second lowest); 0 when empty.
    var relativeSpread: Double {
        guard count > 1, median > 0 else { return 0 }
        let sorted = self.sorted()
        return (sorted[(3 * count) / 4] - sorted[count / 4]) / median
    }

    /// The middle value (the mean of the two middle values for an even count); 0 when empty.
    var median: Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
