import Foundation
import NotifyKit
import NotifyTraceApp
import Synchronization

/// What an attached viewer's look for dead object filters costs the app's posts: one thread posts
/// a name with one observer while another looks for dead object filters and drains the ring, as an
/// inspector's exporter does with a viewer attached (at a faster pace, so a short run sees many
/// looks), over registrations that each filter on a live object. A third thread adds and removes
/// a registration every 100 µs, as apps do, so posts keep reading the registrations under the
/// center's lock rather than from their thread's copy.
///
/// The posts alternate between phases with the look on and off, so the row shows in the same run
/// what the machine alone does to a post: on a virtual machine whose CPUs the host takes away, a
/// post can wait over a millisecond with no look at all, and then the row cannot judge the look.
struct FilterLookWorkload: Workload {
    static let row = "post latency while a viewer looks for dead object filters, 100k filtered registrations"
    static let registrations = 100_000
    static let targetNanoseconds: UInt64 = 1_000_000
    /// The pause between looks (the exporter's is 100 ms).
    static let lookIntervalMicroseconds: UInt32 = 20_000
    static let postsPerBatch = 1_024
    /// A batch whose posting thread waited this long for a CPU measured the machine, not the look.
    static let disturbedWaitNanoseconds: UInt64 = 200_000

    let profile: Profile

    var rowNames: [String] { [Self.row] }

    func run(_ options: BenchOptions) throws -> [Row] {
        guard options.selects(Self.row) else { return [] }
        progress(Self.row)
        let result = Self.measure(nanoseconds: profile.name == "quick" ? 1_500_000_000 : 6_000_000_000)
        var row = Row(Self.row)
        row.notifyKit = .latency(
            max: Double(result.looking.maximum), p99: Double(result.looking.p99),
            conditions: "\(result.looks) looks, \(result.kept) of \(result.batches) batches undisturbed; "
                + "the same run without the look: max \(Cell.duration(Double(result.baseline.maximum))), "
                + "p99 \(Cell.duration(Double(result.baseline.p99)))")
        row.expect("max < 1 ms", result.looking.maximum < Self.targetNanoseconds)
        let machineStalls = result.baseline.maximum >= Self.targetNanoseconds
        if result.looks < 2 || result.kept * 4 < result.batches || (machineStalls && row.passed == false) {
            row.markInconclusive()
        }
        return [row]
    }

    struct Latencies {
        var p99: UInt64
        var maximum: UInt64

        init(_ sorted: [UInt64]) {
            p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
            maximum = sorted.last ?? 0
        }
    }

    struct Result {
        /// Posts while the viewer looked.
        var looking: Latencies
        /// Posts in the same run while it did not.
        var baseline: Latencies
        var looks: Int
        var batches: Int
        var kept: Int
    }

    /// Posts for `nanoseconds` while the look runs; the latencies of batches that did not wait for a CPU.
    static func measure(nanoseconds: UInt64) -> Result {
        let center = NotifyCenter(label: "bench-filter-look")
        let objects = (0..<1_024).map { _ in NSObject() }
        let names = (0..<1_024).map { Notification.Name("BenchFilterLook.name\($0)") }
        var tokens: [NotifyToken] = []
        tokens.reserveCapacity(registrations + 1)
        for index in 0..<registrations {
            tokens.append(
                center.addObserver(forName: names[index & 1_023], object: objects[(index >> 10) & 1_023], queue: nil) {
                    _ in
                })
        }
        let posted = Notification.Name("BenchFilterLook.posted")
        tokens.append(center.addObserver(forName: posted, object: nil, queue: nil) { _ in })
        let ring = EventRing(capacity: 1 << 15)
        let attachment = center.attach(ring)
        let looker = Looker(center: center, ring: ring)
        looker.start()
        defer {
            looker.stop()
            attachment.detach()
            for token in tokens { center.removeObserver(token) }
            withExtendedLifetime(objects) {}
        }

        var kept: [[UInt64]] = [[], []]
        var batches = 0
        let start = MonotonicClock.now()
        let end = start + nanoseconds
        var batch = [UInt64](repeating: 0, count: postsPerBatch)
        while MonotonicClock.now() < end {
            let phaseTime = (MonotonicClock.now() - start) % (2 * phaseNanoseconds)
            let looking = phaseTime < phaseNanoseconds
            looker.looking.store(looking, ordering: .relaxed)
            // A look under way as the phase turned is still the look's.
            let settled = looking || phaseTime >= phaseNanoseconds + settleNanoseconds
            let waitedBefore = RunQueueWait.nanoseconds() ?? 0
            for index in 0..<postsPerBatch {
                let start = MonotonicClock.now()
                center.post(name: posted)
                batch[index] = MonotonicClock.now() - start
            }
            let waited = (RunQueueWait.nanoseconds() ?? 0) &- waitedBefore
            batches += 1
            if waited < disturbedWaitNanoseconds, settled { kept[looking ? 0 : 1] += batch }
        }
        return Result(
            looking: Latencies(kept[0].sorted()), baseline: Latencies(kept[1].sorted()), looks: looker.stop(),
            batches: batches, kept: (kept[0].count + kept[1].count) / postsPerBatch)
    }

    /// How long each phase, with the look and without, lasts.
    static let phaseNanoseconds: UInt64 = 100_000_000
    /// The start of a phase without the look that is not counted: a look may still be finishing.
    static let settleNanoseconds: UInt64 = 30_000_000

    /// The exporter's part: looks, drains the ring, pauses, until stopped.
    final class Looker: @unchecked Sendable {  // `stopped` is atomic; the rest is touched by the thread only
        let center: NotifyCenter
        let ring: EventRing
        private let stopped = Atomic<Bool>(false)
        /// Whether the viewer looks, or only drains the ring.
        let looking = Atomic<Bool>(true)
        private var thread: Thread?
        private var looks = 0
        private let finished = DispatchSemaphore(value: 0)

        init(center: NotifyCenter, ring: EventRing) {
            self.center = center
            self.ring = ring
        }

        func start() {
            let thread = Thread { [self] in
                var meter = TraceDrainMeter(path: .records)
                while !stopped.load(ordering: .acquiring) {
                    if looking.load(ordering: .relaxed) {
                        center.lookForDeadObjectFilters()
                        looks += 1
                    }
                    _ = meter.drain(ring)
                    usleep(FilterLookWorkload.lookIntervalMicroseconds)
                }
                finished.signal()
            }
            let churn = Thread { [self] in
                let name = Notification.Name("BenchFilterLook.churn")
                while !stopped.load(ordering: .acquiring) {
                    center.removeObserver(center.addObserver(forName: name, object: nil, queue: nil) { _ in })
                    usleep(100)
                }
                finished.signal()
            }
            self.thread = thread
            thread.start()
            churn.start()
        }

        /// Stops the thread (once) and returns how many looks it made.
        @discardableResult
        func stop() -> Int {
            if thread != nil, !stopped.exchange(true, ordering: .acquiringAndReleasing) {
                finished.wait()
                finished.wait()
            }
            return looks
        }
    }
}
