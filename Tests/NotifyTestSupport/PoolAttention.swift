package import Foundation

/// Time that counts against a wait for async observers: only the time in which the task pool ran
/// the waiter promptly.
///
/// Async observers run on Swift's cooperative pool, one thread per core. Swift Testing starts every
/// test at once, and a synchronous test holds its pool thread until it ends, so an observer's job
/// can queue behind the rest of the run: under ThreadSanitizer on two cores that is two minutes
/// and more, and a wall-clock timeout failed there. A waiter woken within 50 ms of asking was
/// queued behind nothing much, and neither was the observer's job, queued earlier at the same
/// priority; so only such intervals are counted. A hard limit keeps a hung observer from hanging
/// the run.
package struct PoolAttention {
    package static let defaultBudget: TimeInterval = 30
    package static let hardLimit: TimeInterval = 900
    package static let promptWake: TimeInterval = 0.05

    package let budget: TimeInterval
    package private(set) var attended: TimeInterval = 0
    private var last = Date()
    private let started = Date()

    package init(budget: TimeInterval = Self.defaultBudget) { self.budget = budget }

    /// Sleeps a millisecond; false once the budget or the hard limit is spent.
    package mutating func sleep() async -> Bool {
        try? await Task.sleep(for: .milliseconds(1))
        let now = Date()
        let interval = now.timeIntervalSince(last)
        last = now
        if interval < Self.promptWake { attended += interval }
        return attended < budget && now.timeIntervalSince(started) < Self.hardLimit
    }
}
