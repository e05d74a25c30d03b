import NotifyKit

/// Paces the workload to `--rate`, following the scenario's rate profile.
///
/// Stateless apart from the start time: the process is allowed `allowance(elapsed) × rate` posts
/// so far, and a lane steps only while the posts of all threads are below that, so a run that fell
/// behind (a slow handler, a busy core) catches up instead of drifting.
struct Pacer: Sendable {
    /// Posts per second; nil runs unpaced.
    let rate: Double?
    let scenario: DemoScenario
    let start: UInt64

    init(rate: Double?, scenario: DemoScenario, start: UInt64 = MonotonicClock.now()) {
        self.rate = rate
        self.scenario = scenario
        self.start = start
    }

    /// Seconds to wait before the next step after `posts` posts; 0 means go now. At most 50 ms, so
    /// a waiting lane still notices a stop request quickly.
    func delay(afterPosts posts: Int, now: UInt64 = MonotonicClock.now()) -> Double {
        guard let rate, rate > 0 else { return 0 }
        let elapsed = Double(now &- start) / 1e9
        let allowed = scenario.allowance(after: elapsed) * rate
        guard Double(posts) >= allowed else { return 0 }
        let slope = rate * scenario.rateMultiplier(at: elapsed)
        return min(0.05, max(0.0005, (Double(posts) + 1 - allowed) / slope))
    }
}
