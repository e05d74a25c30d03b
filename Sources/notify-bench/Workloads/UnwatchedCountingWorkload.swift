import NotifyKit

/// What the always-on history counters cost an unwatched post: the post of ``PostWorkload`` timed
/// with the center's counting on and off in turns, on one center in one run, and the allocations
/// per post with counting on.
struct UnwatchedCountingWorkload: Workload {
    static let observerCounts = [1, 10]
    /// The most the counters may add to a post: two loads and two stores, whose cost this host
    /// resolves only to a few ns (the same build read +1.9 to +4.4 ns), or a small share of the post.
    static let addedLimit = 5.0
    static let addedFraction = 0.03

    let measurer: Measurer
    let profile: Profile

    static func rowName(observers: Int) -> String {
        "unwatched post, history counters on vs off, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    static func allocationRowName(observers: Int) -> String {
        "allocations per unwatched post, history counters on, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    var rowNames: [String] {
        Self.observerCounts.map(Self.rowName) + Self.observerCounts.map(Self.allocationRowName)
    }

    func run(_ options: BenchOptions) throws -> [Row] {
        let timed = try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            try timedRow(name, observers: observers)
        }
        let allocated = try selectedRows(Self.observerCounts, named: Self.allocationRowName, options) {
            observers, name in
            var row = Row(name)
            let count = try allocations(observers: observers, name)
            row.notifyKit = .allocations(count)
            row.expectDeterministic("0", count == 0)
            return row
        }
        return timed + allocated
    }

    /// Times rounds of posts with counting off and on in turns (off, on, on, off, …), so both sides
    /// see the same machine and drift cancels; the row shows the median of the per-pair differences
    /// and the medians of each side.
    private func timedRow(_ name: String, observers: Int) throws -> Row {
        let fixture = PostFixture<NotifyKitCenter>(observers: observers)
        let center = fixture.center.center
        // Calibrates the round and warms up both paths.
        let calibration = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        var posts = calibration.operations
        let n = max(1, Int(Double(profile.roundNanos) / max(calibration.nsPerOp, 0.1)))
        func round(counting: Bool) -> Double {
            center.countsUnwatched = counting
            let start = MonotonicClock.now()
            for _ in 0..<n { fixture.post() }
            posts += n
            return Double(MonotonicClock.now() &- start) / Double(n)
        }
        var alternation = Alternation()
        for pair in 0..<Self.pairs(profile) {
            if pair % 2 == 0 {
                let off = round(counting: false)
                alternation.add(on: round(counting: true), off: off)
            } else {
                let on = round(counting: true)
                alternation.add(on: on, off: round(counting: false))
            }
        }
        center.countsUnwatched = true
        try fixture.verify(posts: posts, name)
        return alternation.row(name, limit: Self.addedLimit, orFractionOfWithout: Self.addedFraction)
    }

    /// On/off pairs of rounds timed.
    private static func pairs(_ profile: Profile) -> Int { 4 * profile.rounds + 1 }

    private func allocations(observers: Int, _ name: String) throws -> Double {
        let fixture = PostFixture<NotifyKitCenter>(observers: observers)
        fixture.center.center.countsUnwatched = true
        let posts = profile.allocationPosts
        let warmup = PostFixture<NotifyKitCenter>.allocationWarmup
        let perPost = try fixture.allocationsPerPost(posts, name)
        let counted = fixture.center.center.history().counts.values.reduce(0) { $0 + $1.posts }
        guard counted == UInt64(warmup + posts) else {
            throw DeliveryMismatch(
                benchmark: name, center: "NotifyKitCenter",
                detail: "history counted \(counted) of \(warmup + posts) posts")
        }
        return perPost
    }
}
