import Dispatch
import Foundation
import NotifyKit

/// Long-lived posting threads for the contention benchmark, so a trial times only the posts: each
/// worker waits for a job, runs it and reports back, and counts deliveries in its own
/// ``ThreadCounter``, alone on its cache lines.
final class WorkerPool: @unchecked Sendable {  // `job` is written before the start semaphores are signalled and read after they are waited on
    let size: Int
    private let start: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    private var job: (@Sendable () -> Void)?
    private let counters: [UnsafeMutablePointer<Int>]

    init(size: Int) {
        self.size = size
        start = (0..<size).map { _ in DispatchSemaphore(value: 0) }
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
                    job()
                    finished.signal()
                }
            }
            thread.start()
        }
    }

    /// Runs `job` on the first `threads` workers at once; returns the wall-clock nanoseconds until
    /// the last one finished.
    func run(threads: Int, _ job: @escaping @Sendable () -> Void) -> UInt64 {
        precondition(threads <= size)
        self.job = job
        let begin = MonotonicClock.now()
        for index in 0..<threads { start[index].signal() }
        for _ in 0..<threads { finished.wait() }
        return MonotonicClock.now() &- begin
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
