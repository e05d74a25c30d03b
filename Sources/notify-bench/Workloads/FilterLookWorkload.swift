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
            max: Double(result.maximum), p99: Double(result.p99),
            conditions: "\(result.looks) looks, \(result.kept) of \(result.batches) batches undisturbed")
        row.expect("max < 1 ms", result.maximum < Self.targetNanoseconds)
        if result.looks < 2 || result.kept * 4 < result.batches { row.markInconclusive() }
        return [row]
    }

    struct Result {
        var p99: UInt64
        var maximum: UInt64
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

        var kept: [UInt64] = []
        var batches = 0
        let end = MonotonicClock.now() + nanoseconds
        var batch = [UInt64](repeating: 0, count: postsPerBatch)
        while MonotonicClock.now() < end {
            let waitedBefore = RunQueueWait.nanoseconds() ?? 0
            for index in 0..<postsPerBatch {
                let start = MonotonicClock.now()
                center.post(name: posted)
                batch[index] = MonotonicClock.now() - start
            }
            let waited = (RunQueueWait.nanoseconds() ?? 0) &- waitedBefore
            batches += 1
            if waited < disturbedWaitNanoseconds { kept += batch }
        }
        kept.sort()
        let p99 = kept.isEmpty ? 0 : kept[min(kept.count - 1, kept.count * 99 / 100)]
        return Result(
            p99: p99, maximum: kept.last ?? 0, looks: looker.stop(), batches: batches, kept: kept.count / postsPerBatch)
    }

    /// The exporter's part: looks, drains the ring, pauses, until stopped.
    final class Looker: @unchecked Sendable {  // `stopped` is atomic; the rest is touched by the thread only
        let center: NotifyCenter
        let ring: EventRing
        private let stopped = Atomic<Bool>(false)
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
                    center.lookForDeadObjectFilters()
                    looks += 1
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
