import Dispatch
import Foundation
import NotifyKit

/// Long-lived posting threads for the contention benchmark, so a trial times only the posts: each
/// worker waits for a job, runs it and reports back, and counts deliveries in its own
/// ``ThreadCounter``, alone on its cache lines.
final class WorkerPool: @unchecked Sendable {  // the semaphores order every access to `job` and `waits`
    let size: Int
    private let start: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    private var job: (@Sendable () -> Void)?
    private let counters: [UnsafeMutablePointer<Int>]
    /// Each worker's run-queue wait during its last job, written before it signals `finished`.
    private let waits: UnsafeMutablePointer<UInt64>

    init(size: Int) {
        self.size = size
        start = (0..<size).map { _ in DispatchSemaphore(value: 0) }
        waits = .allocate(capacity: size)
        waits.initialize(repeating: 0, count: size)
        counters = (0..<size).map { _ in
            // Two 64-byte lines per thread, aligned, so the adjacent-line prefetcher shares nothing either.
            let raw = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128)
            return raw.initializeMemory(as: Int.self, repeating: 0, count: 16)
        }
        for index in 0..<size {
            let thread = Thread { [self] in
                ThreadCounter.install(counters[index])
                while true {
                    start[index].wait()
                    guard let job else { return }
                    let waitBefore = RunQueueWait.nanoseconds() ?? 0
                    job()
                    waits[index] = (RunQueueWait.nanoseconds() ?? 0) &- waitBefore
                    finished.signal()
                }
            }
            thread.start()
        }
    }

    struct Trial {
        /// Wall-clock nanoseconds from starting the first worker until the last one finished.
        var wall: UInt64
        /// Nanoseconds the workers spent runnable but waiting for a CPU, added up.
        var runQueueWait: UInt64
        var threads: Int

        var isUndisturbed: Bool { RunQueueWait.isNegligible(runQueueWait, wall: wall, threads: threads) }
    }

    /// Runs `job` on the first `threads` workers at once.
    func run(threads: Int, _ job: @escaping @Sendable () -> Void) -> Trial {
        precondition(threads <= size)
        self.job = job
        let begin = MonotonicClock.now()
        for index in 0..<threads { start[index].signal() }
        for _ in 0..<threads { finished.wait() }
        let wall = MonotonicClock.now() &- begin
        return Trial(wall: wall, runQueueWait: (0..<threads).reduce(0) { $0 + waits[$1] }, threads: threads)
    }

    /// Deliveries counted by all workers since the last reset.
    var deliveries: Int { counters.reduce(0) { $0 + $1.pointee } }

    func resetDeliveries() {
        for counter in counters { counter.pointee = 0 }
    }

    /// Ends the worker threads.
    func stop() {
        job = nil
        for semaphore in start { semaphore.signal() }
    }
}
