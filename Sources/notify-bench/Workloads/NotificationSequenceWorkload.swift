import Foundation
import NotifyKit

/// `notifications(named:)` end to end: one task iterating the sequence (its buffer holds the whole
/// burst), a burst of posts from this thread, and per notification both the posting loop's time
/// (what the poster pays) and the time until the task has taken the last one. Foundation on Linux
/// has no such sequence, so the rows are NotifyKit's alone, reported for information.
struct NotificationSequenceWorkload: Workload {
    static let burst = 1_000
    static let postRow = "notifications(named:) burst of 1k, the posts alone, per notification"
    static let deliveryRow = "notifications(named:) burst of 1k, post to last delivery, per notification"
    /// Seconds a burst may take before the measurement is void.
    static let timeoutSeconds = 60

    let profile: Profile

    var rowNames: [String] { [Self.postRow, Self.deliveryRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        guard selectsAny(options) else { return [] }
        progress("notifications(named:) burst of 1k")
        let (posting, delivery) = try measure()
        var rows: [Row] = []
        for (name, nanoseconds) in [(Self.postRow, posting), (Self.deliveryRow, delivery)] where options.selects(name) {
            var row = Row(name)
            row.notifyKit = .nanoseconds(nanoseconds)
            rows.append(row)
        }
        return rows
    }

    /// Median ns per notification of the posting loop and of post to last delivery, after a
    /// warm-up burst; each burst must reach the task exactly `burst` times.
    private func measure() throws -> (posting: Double, delivery: Double) {
        let center = NotifyCenter()
        let name = Notification.Name("bench.sequence")
        let goal = DeliveryGoal()
        let consumer = Task {
            for await _ in center.notifications(named: name, bufferSize: Self.burst) { goal.deliver() }
        }
        defer { consumer.cancel() }
        while center.registrationCount == 0 { usleep(1_000) }
        func timedBurst() throws -> (posting: Double, delivery: Double) {
            goal.expect(Self.burst)
            let start = MonotonicClock.now()
            for _ in 0..<Self.burst { center.post(name: name) }
            let posted = MonotonicClock.now()
            guard goal.wait(seconds: Self.timeoutSeconds), goal.count == Self.burst else {
                throw DeliveryMismatch(
                    benchmark: Self.deliveryRow, center: "NotifyKitCenter",
                    detail: "\(goal.count) of \(Self.burst) notifications taken")
            }
            let end = MonotonicClock.now()
            let count = Double(Self.burst)
            return (Double(posted - start) / count, Double(end - start) / count)
        }
        _ = try timedBurst()
        var posting: [Double] = []
        var delivery: [Double] = []
        for _ in 0..<profile.rounds {
            let sample = try timedBurst()
            posting.append(sample.posting)
            delivery.append(sample.delivery)
        }
        return (posting.median, delivery.median)
    }
}
