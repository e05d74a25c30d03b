import CAllocationCounter

/// Typed main-actor messages on each center, in one run: `post(_:)` delivered to 1 or 10 observers
/// registered with `addObserver(for:using:)`, an add+remove pair through `ObservationToken`, and
/// NotifyKit's allocations per post. notify-bench runs on the main thread, so the main actor is
/// assumed, not hopped to.
struct MainActorMessageWorkload: Workload {
    static let observerCounts = [1, 10]
    static let addRemoveRow = "MainActorMessage add+remove pair, ObservationToken"
    static let allocationRow = "allocations per MainActorMessage post, 1 observer"

    let measurer: Measurer
    let profile: Profile

    static func postRow(observers: Int) -> String {
        "MainActorMessage post, \(observers) observer\(observers == 1 ? "" : "s")"
    }

    var rowNames: [String] { Self.observerCounts.map(Self.postRow) + [Self.addRemoveRow, Self.allocationRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        try MainActor.assumeIsolated {
            var rows = try selectedRows(Self.observerCounts, named: Self.postRow, options) { observers, name in
                var row = Row(name)
                row.notifyKit = .nanoseconds(try measurePosts(NotifyKitMessageCenter.self, observers, name))
                row.foundation = .nanoseconds(try measurePosts(FoundationMessageCenter.self, observers, name))
                if let ratio = row.ratioToFoundation { row.expect("≥ 5× faster than Foundation", ratio <= 0.2) }
                return row
            }
            if options.selects(Self.addRemoveRow) {
                progress(Self.addRemoveRow)
                var row = Row(Self.addRemoveRow)
                AddRemoveWorkload.speedTarget.judge(
                    &row, notifyKit: try measurePairs(NotifyKitMessageCenter.self),
                    foundation: try measurePairs(FoundationMessageCenter.self), floor: measureFloorPairs())
                rows.append(row)
            }
            if options.selects(Self.allocationRow) {
                progress(Self.allocationRow)
                var row = Row(Self.allocationRow)
                let notifyKit = try countAllocations(NotifyKitMessageCenter.self)
                row.notifyKit = .allocations(notifyKit)
                row.foundation = .allocations(try countAllocations(FoundationMessageCenter.self))
                row.expectDeterministic("0", notifyKit == 0)
                rows.append(row)
            }
            return rows
        }
    }

    /// Median ns per post, after checking every observer saw every post.
    @MainActor private func measurePosts<Center: MessageBenchCenter>(
        _: Center.Type, _ observers: Int, _ benchmark: String
    ) throws -> Double {
        let center = Center()
        let counters = (0..<observers).map { _ in Counter() }
        let tokens = counters.map { counter in center.observeMain { _ in counter.count &+= 1 } }
        let message = BenchMainMessage(value: 1)
        let result = measurer.measure { n in
            for _ in 0..<n { center.post(message) }
        }
        withExtendedLifetime(tokens) {}
        try Self.verify(counters, posts: result.operations, benchmark, Center.self)
        return result.nsPerOp
    }

    /// The floor's pairs on an empty center (see ``AddRemoveFloor``).
    private func measureFloorPairs() -> Measurement {
        let floor = AddRemoveFloor()
        let handler = Handlers.counting(into: Counter())
        return measurer.measure { n in
            for _ in 0..<n { floor.remove(floor.add(BenchNames.target, handler)) }
        }
    }

    /// The pairs' median ns and noise, after checking that a post reaches none of the removed observers.
    @MainActor private func measurePairs<Center: MessageBenchCenter>(_: Center.Type) throws -> Measurement {
        let center = Center()
        let counter = Counter()
        let handler: @MainActor (BenchMainMessage) -> Void = { _ in counter.count &+= 1 }
        let result = measurer.measure { n in
            for _ in 0..<n {
                let token = center.observeMain(handler)
                center.remove(token)
            }
        }
        center.post(BenchMainMessage(value: 1))
        try Self.verify([counter], posts: 0, Self.addRemoveRow, Center.self)
        return result
    }

    /// Allocations per post to one observer on the posting thread, after a warm-up.
    @MainActor private func countAllocations<Center: MessageBenchCenter>(_: Center.Type) throws -> Double {
        let center = Center()
        let counter = Counter()
        let token = center.observeMain { _ in counter.count &+= 1 }
        let message = BenchMainMessage(value: 1)
        let warmup = 100
        for _ in 0..<warmup { center.post(message) }
        let posts = profile.allocationPosts
        let before = notify_thread_allocation_count()
        for _ in 0..<posts { center.post(message) }
        let after = notify_thread_allocation_count()
        withExtendedLifetime(token) {}
        try Self.verify([counter], posts: warmup + posts, Self.allocationRow, Center.self)
        return Double(after - before) / Double(posts)
    }

    private static func verify<Center>(
        _ counters: [Counter], posts: Int, _ benchmark: String, _: Center.Type
    ) throws(DeliveryMismatch) {
        for (index, counter) in counters.enumerated() where counter.count != posts {
            throw DeliveryMismatch(
                benchmark: benchmark, center: "\(Center.self)",
                detail: "observer \(index) counted \(counter.count) deliveries of \(posts) posts")
        }
    }
}
