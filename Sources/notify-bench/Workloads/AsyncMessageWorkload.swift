import NotifyKit

/// Typed async messages end to end on each center, in one run: one observer, a burst of posts
/// from this thread, and the time until the observer has run for the last of them, per message.
/// Foundation's delivery slows down as its backlog grows, so the large burst is the one that
/// shows it; `--quick` uses a smaller large burst (the row says so) to stay short.
struct AsyncMessageWorkload: Workload {
    /// Seconds a burst may take before the measurement is void.
    static let timeoutSeconds = 600

    let profile: Profile

    /// The burst sizes of this profile.
    var bursts: [Int] { [1_000, profile.name == Profile.quick.name ? 20_000 : 200_000] }

    func rowName(burst: Int) -> String {
        let size = burst % 1_000 == 0 ? "\(burst / 1_000)k" : "\(burst)"
        let note = burst == bursts.last && profile.name == Profile.quick.name ? " (--quick; full run: 200k)" : ""
        return "AsyncMessage burst of \(size)\(note), post to last delivery, per message"
    }

    var rowNames: [String] { bursts.map(rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(bursts, named: rowName, options) { burst, name in
            // Small bursts are timed like the other rows; a large one takes seconds on Foundation.
            let repetitions = burst <= 10_000 ? profile.rounds : (profile.name == Profile.quick.name ? 1 : 2)
            var row = Row(name)
            row.notifyKit = .nanoseconds(try measure(NotifyKitMessageCenter.self, burst, repetitions, name))
            row.foundation = .nanoseconds(try measure(FoundationMessageCenter.self, burst, repetitions, name))
            if let ratio = row.ratioToFoundation { row.expect("≥ 5× faster than Foundation", ratio <= 0.2) }
            return row
        }
    }

    /// Median ns per message over `repetitions` bursts, after a warm-up burst; each burst must
    /// reach the observer exactly `burst` times.
    private func measure<Center: MessageBenchCenter>(
        _: Center.Type, _ burst: Int, _ repetitions: Int, _ benchmark: String
    ) throws -> Double {
        let center = Center()
        let goal = DeliveryGoal()
        let token = center.observeAsync { _ in goal.deliver() }
        defer { center.remove(token) }
        func timedBurst(_ count: Int) throws -> Double {
            goal.expect(count)
            let start = MonotonicClock.now()
            for index in 0..<count { center.post(BenchAsyncMessage(value: index)) }
            guard goal.wait(seconds: Self.timeoutSeconds) else {
                throw DeliveryMismatch(
                    benchmark: benchmark, center: "\(Center.self)",
                    detail: "\(goal.count) of \(count) messages delivered after \(Self.timeoutSeconds) s")
            }
            let elapsed = MonotonicClock.now() - start
            guard goal.count == count else {
                throw DeliveryMismatch(
                    benchmark: benchmark, center: "\(Center.self)",
                    detail: "\(goal.count) deliveries of \(count) messages")
            }
            return Double(elapsed) / Double(count)
        }
        _ = try timedBurst(min(burst, 1_000))
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(try timedBurst(burst)) }
        return samples.median
    }
}
