import CAllocationCounter
import Foundation

/// A fresh center with `observers` counting handlers on ``BenchNames/target``, registered after
/// one handler on each of `unrelated` other names: the setup shared by the posting workloads.
struct PostFixture<Center: BenchCenter> {
    static var unrelatedNames: Int { 1_000 }

    let center = Center()
    let observers: Int
    /// One per matching observer.
    let counters: [Counter]
    private let unrelatedCounter = Counter()
    private var tokens: [AnyObject] = []

    init(observers: Int, unrelated: Int = Self.unrelatedNames) {
        self.observers = observers
        counters = (0..<observers).map { _ in Counter() }
        for name in BenchNames.others(unrelated) {
            tokens.append(center.add(name, Handlers.counting(into: unrelatedCounter)))
        }
        for counter in counters {
            tokens.append(center.add(BenchNames.target, Handlers.counting(into: counter)))
        }
    }

    func post() {
        center.post(BenchNames.target)
    }

    /// Zeroes every count.
    func reset() {
        for counter in counters { counter.count = 0 }
        unrelatedCounter.count = 0
    }

    /// Checks that each matching observer saw exactly `posts` deliveries and no other one saw any.
    func verify(posts: Int, _ benchmark: String) throws(DeliveryMismatch) {
        for (index, counter) in counters.enumerated() where counter.count != posts {
            throw DeliveryMismatch(
                benchmark: benchmark, center: "\(Center.self)",
                detail: "observer \(index) counted \(counter.count) deliveries of \(posts) posts")
        }
        if unrelatedCounter.count != 0 {
            throw DeliveryMismatch(
                benchmark: benchmark, center: "\(Center.self)",
                detail: "unrelated observers counted \(unrelatedCounter.count) deliveries")
        }
    }
}

/// A center delivered a different number of notifications than were posted: the measurement is void.
struct DeliveryMismatch: Error, CustomStringConvertible {
    let benchmark: String
    let center: String
    let detail: String

    var description: String { "\(benchmark): \(center): \(detail)" }
}

extension PostFixture {
    /// Posts made before allocations are counted.
    static var allocationWarmup: Int { 100 }

    /// Heap allocations per post on the calling thread, over `posts` posts after
    /// ``allocationWarmup`` of warm-up; every delivery is checked afterwards.
    func allocationsPerPost(_ posts: Int, _ benchmark: String) throws -> Double {
        let warmup = Self.allocationWarmup
        for _ in 0..<warmup { post() }
        let before = notify_thread_allocation_count()
        for _ in 0..<posts { post() }
        let after = notify_thread_allocation_count()
        try verify(posts: warmup + posts, benchmark)
        return Double(after - before) / Double(posts)
    }
}
