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

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(Self.observerCounts, named: Self.rowName, options) { observers, name in
            var row = Row(name)
            row.notifyKit = .nanoseconds(try measure(NotifyKitCenter.self, observers, name))
            row.foundation = .nanoseconds(try measure(FoundationCenter.self, observers, name))
            let floor = try measure(FloorCenter.self, observers, name, unrelated: 0)
            row.floor = .nanoseconds(floor)
            if let notifyKit = row.notifyKit.measurement, let foundation = row.foundation.measurement {
                // The target: at least 10× faster than Foundation with observers, within 2× of the floor at 100.
                let fastEnough = observers == 0 || foundation / notifyKit >= 10
                let nearFloor = observers < 100 || notifyKit <= Self.floorFactor * floor
                var target = observers == 0 ? "≤ Foundation" : "≥ 10× faster than Foundation"
                if observers >= 100 { target += ", ≤ 2× floor" }
                row.expect(target, fastEnough && nearFloor && notifyKit <= foundation)
            }
            return row
        }
    }

    /// Median ns per post, after checking every observer saw every post.
    private func measure<Center: BenchCenter>(
        _: Center.Type, _ observers: Int, _ benchmark: String,
        unrelated: Int = PostFixture<Center>.unrelatedNames
    ) throws -> Double {
        let fixture = PostFixture<Center>(observers: observers, unrelated: unrelated)
        let result = measurer.measure { n in
            for _ in 0..<n { fixture.post() }
        }
        try fixture.verify(posts: result.operations, benchmark)
        return result.nsPerOp
    }
}
