import CAllocationCounter
import CNotifyTicks
import Foundation
import NotifyKit
import NotifySystem

/// What the probed path costs a posting thread once a recorder is attached and drained, as a
/// viewer's exporter drains it: nanoseconds per traced event over the unprobed post, measured
/// before and after (beside the cost of the one clock reading each event needs; not judged when
/// the two unprobed figures differ by over a fifth of the target per event), allocations per
/// probed post, and how two posting threads with a viewer attached scale over one.
struct RecordWorkload: Workload {
    static let observerCounts = [1, 10]
    static let eventTargetNanos = 25.0
    static let allocationRow = "allocations per probed post, 1 observer (recorder drained)"
    static let scalingRow = "2 threads posting with a viewer ÷ 1 thread (throughput)"
    static let scalingTarget = 1.6

    let measurer: Measurer
    let profile: Profile

    static func eventRowName(observers: Int) -> String {
        "traced event over unprobed post, \(observers) observer\(observers == 1 ? "" : "s") (floor: clock reading)"
    }

    var rowNames: [String] { Self.observerCounts.map(Self.eventRowName) + [Self.allocationRow, Self.scalingRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows = try selectedRows(Self.observerCounts, named: Self.eventRowName, options) { observers, name in
            try eventCost(observers: observers, name)
        }
        if options.selects(Self.allocationRow) { rows.append(try allocations()) }
        if options.selects(Self.scalingRow) { rows.append(try scaling()) }
        return rows
    }

    /// (probed − unprobed) ÷ events per post, measured in the same run.
    private func eventCost(observers: Int, _ name: String) throws -> Row {
        let fixture = PostFixture<NotifyKitCenter>(observers: observers)
        /// The fixture's posts timed from fresh counters, then checked to have reached every handler.
        func timedPosts() throws -> Measurement {
            fixture.reset()
            let measured = measurer.measure { n in
                for _ in 0..<n { fixture.post() }
            }
            try fixture.verify(posts: measured.operations, name)
            return measured
        }
        let unprobed = try timedPosts()
        let drainer = BackgroundDrainer()
        let attachment = fixture.center.center.attach(drainer.recorder)
        let probed = try timedPosts()
        attachment.detach()
        let drained = drainer.stop()
        guard drained.events > 0 else {
            throw DeliveryMismatch(benchmark: name, center: "NotifyKitCenter", detail: "the recorder saw no events")
        }
        // The unprobed post again, after: the baseline is their mean, and a host whose speed moved
        // between the two by more than a few nanoseconds per event cannot show a difference this small.
        let unprobedAfter = try timedPosts()
        let baseline = (unprobed.nsPerOp + unprobedAfter.nsPerOp) / 2
        let baselineDrift = abs(unprobed.nsPerOp - unprobedAfter.nsPerOp) / Double(observers + 1)
        let perEvent = (probed.nsPerOp - baseline) / Double(observers + 1)
        var row = Row(name)
        row.notifyKit = .nanoseconds(perEvent)
        row.floor = .nanoseconds(Self.clockReadingNanos())
        row.expect("≤ \(Cell.decimal(Self.eventTargetNanos, places: 0)) ns", perEvent <= Self.eventTargetNanos)
        // The drainer fell behind (it had no CPU): dropped events cost less, so the figure is not the cost.
        if drained.dropped * 100 > UInt64(drained.events) { row.markInconclusive() }
        if perEvent < 0 || baselineDrift > Self.eventTargetNanos / 5 { row.markInconclusive() }
        return row
    }

    /// Nanoseconds one reading of the CPU's counter takes.
    private static func clockReadingNanos() -> Double {
        let readings = 1_000_000
        var sink: UInt64 = 0
        let start = MonotonicClock.now()
        for _ in 0..<readings { sink &+= notify_cpu_ticks() }
        let elapsed = MonotonicClock.now() - start
        withExtendedLifetime(sink) {}
        return Double(elapsed) / Double(readings)
    }

    private func allocations() throws -> Row {
        progress(Self.allocationRow)
        let fixture = PostFixture<NotifyKitCenter>(observers: 1)
        let drainer = BackgroundDrainer()
        let attachment = fixture.center.center.attach(drainer.recorder)
        let warmup = 1_000
        for _ in 0..<warmup { fixture.post() }
        let posts = profile.allocationPosts
        let before = notify_thread_allocation_count()
        for _ in 0..<posts { fixture.post() }
        let after = notify_thread_allocation_count()
        attachment.detach()
        _ = drainer.stop()
        try fixture.verify(posts: warmup + posts, Self.allocationRow)
        let perPost = Double(after - before) / Double(posts)
        var row = Row(Self.allocationRow)
        row.notifyKit = .allocations(perPost)
        row.expectDeterministic("0", perPost == 0)
        return row
    }

    /// Posts per second from two threads at once over one thread's, with a live viewer attached.
    private func scaling() throws -> Row {
        progress(Self.scalingRow)
        let posts = profile.name == "quick" ? 100_000 : 400_000
        let session = try ViewerSession()
        defer { session.stop() }
        session.attachViewer()
        _ = session.timePosts(10_000)
        let one = Self.wallNanos(threads: 1, postsEach: posts, session)
        let two = Self.wallNanos(threads: 2, postsEach: posts, session)
        let factor = (2 * Double(posts) / two) / (Double(posts) / one)
        var row = Row(Self.scalingRow)
        row.notifyKit = .factorOf(factor, numerator: one / Double(posts), denominator: two / Double(2 * posts))
        row.expect("≥ \(Cell.decimal(Self.scalingTarget, places: 1))×", factor >= Self.scalingTarget)
        if ProcessInfo.processInfo.activeProcessorCount < 4 { row.markInconclusive() }
        return row
    }

    /// Wall nanoseconds for `threads` threads to post `postsEach` each, started together.
    private static func wallNanos(threads: Int, postsEach: Int, _ session: ViewerSession) -> Double {
        let ready = DispatchGroup()
        let done = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            ready.enter()
            done.enter()
            Thread.detachNewThread {
                _ = session.timePosts(1_000)
                ready.leave()
                go.wait()
                _ = session.timePosts(postsEach)
                done.leave()
            }
        }
        ready.wait()
        let start = MonotonicClock.now()
        for _ in 0..<threads { go.signal() }
        done.wait()
        return Double(MonotonicClock.now() - start)
    }
}

/// A recorder drained every millisecond on a thread of its own, as the inspector's exporter does,
/// by a visitor that only counts: the posting thread's cost is the row, so the drain is kept as
/// cheap as a drain can be, and the rings large, so that no event is dropped (a dropped event costs
/// the writer less than a recorded one, and would flatter the row).
final class BackgroundDrainer: @unchecked Sendable {  // `running` is locked; the rest belongs to the thread
    static let capacityPerThread = 1 << 17
    let recorder = ProbeRecorder(capacityPerThread: BackgroundDrainer.capacityPerThread)
    private let running = LockedValue(true)
    private let finished = DispatchSemaphore(value: 0)
    private let total = LockedValue((events: 0, dropped: UInt64(0)))

    init() {
        Thread.detachNewThread { [self] in
            while running.withLock({ $0 }) {
                var counter = CountingVisitor()
                let dropped = recorder.drain(to: &counter)
                total.withLock { $0 = ($0.events + counter.count, $0.dropped + dropped) }
                usleep(1_000)
            }
            finished.signal()
        }
    }

    /// Stops draining; returns the events drained and those the full rings dropped.
    func stop() -> (events: Int, dropped: UInt64) {
        running.withLock { $0 = false }
        finished.wait()
        var counter = CountingVisitor()
        let dropped = recorder.drain(to: &counter)
        return total.withLock { ($0.events + counter.count, $0.dropped + dropped) }
    }
}

/// Counts what a drain hands over, reading nothing.
private struct CountingVisitor: ProbeRecordVisitor {
    var count = 0
    mutating func visit(_ record: ProbeDrainedRecord) { count += 1 }
    mutating func visit(_ event: ProbeEvent) { count += 1 }
}
