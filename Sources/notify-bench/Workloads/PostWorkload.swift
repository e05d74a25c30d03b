/// Benchmarks 1 and 2: one post to 0, 1, 10 or 100 matching observers among 1,000 registrations
/// on other names, on each center, and on the floor (which has only the matching observers).
struct PostWorkload: Workload {
    static let observerCounts = [0, 1, 10, 100]
    /// NotifyKit should stay within this factor of the floor.
    static let floorFactor = 2.0

    let measurer: Measurer

    static func rowName(observers: Int) -> String {
        "post, \(observers) observer\(observers == 1 ? "" : "s") (+1k other names)"
    }

    var rowNames: [String] { Self.observerCounts.map(Self.rowName) }

    /// With observers: ≥ 10× faster than Foundation; where the floor is not, within 1.5× of the floor.
    static let speedTarget = SpeedTarget(factor: 10, floorSlack: 1.5)

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            var row = Row(name)
            let notifyKit = try measure(NotifyKitCenter.self, observers, name)
            let foundation = try measure(FoundationCenter.self, observers, name)
            let floor = try measure(FloorCenter.self, observers, name, unrelated: 0)
            guard observers > 0 else {
                row.notifyKit = .nanoseconds(notifyKit.nsPerOp)
                row.foundation = .nanoseconds(foundation.nsPerOp)
                row.floor = .nanoseconds(floor.nsPerOp)
                row.expect("≤ Foundation", notifyKit.nsPerOp <= foundation.nsPerOp)
                return row
            }
            Self.speedTarget.judge(&row, notifyKit: notifyKit, foundation: foundation, floor: floor)
            if observers >= 100, let passed = row.passed {
                // At 100 observers the handlers dominate: NotifyKit must also stay near the floor.
                row.expect(row.target + ", ≤ 2× floor", passed && notifyKit.nsPerOp <= Self.floorFactor * floor.nsPerOp)
            }
            return row
        }
    }

    /// The posts' median ns and noise, after checking every observer saw every post.
    private func measure<Center: BenchCenter>(
        _: Center.Type, _ observers: Int, _ benchmark: String,
        unrelated: Int = PostFixture<Center>.unrelatedNames
    ) throws -> Measurement {
        let fixture = PostFixture<Center>(observers: observers, unrelated: unrelated)
        let result = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        try fixture.verify(posts: result.operations, benchmark)
        return result
    }
}
