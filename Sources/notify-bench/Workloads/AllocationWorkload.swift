/// Benchmark 5: heap allocations per post (no probe attached), counted by the executable's malloc
/// override on the posting thread over many posts, after a warm-up.
struct AllocationWorkload: Workload {
    let profile: Profile

    static func rowName(observers: Int) -> String {
        "allocations per post, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    var rowNames: [String] { PostWorkload.observerCounts.map(Self.rowName) }

    func run(_ options: BenchOptions) throws -> [Row] {
        try selectedRows(PostWorkload.observerCounts, named: Self.rowName, options) { observers, name in
            var row = Row(name)
            let notifyKit = try count(NotifyKitCenter.self, observers, name)
            row.notifyKit = .allocations(notifyKit)
            row.foundation = .allocations(try count(FoundationCenter.self, observers, name))
            row.floor = .allocations(try count(FloorCenter.self, observers, name, unrelated: 0))
            row.expectDeterministic("0", notifyKit == 0)
            return row
        }
    }

    /// Allocations per post on the calling thread.
    private func count<Center: BenchCenter>(
        _: Center.Type, _ observers: Int, _ benchmark: String,
        unrelated: Int = PostFixture<Center>.unrelatedNames
    ) throws -> Double {
        try PostFixture<Center>(observers: observers, unrelated: unrelated)
            .allocationsPerPost(profile.allocationPosts, benchmark)
    }
}
