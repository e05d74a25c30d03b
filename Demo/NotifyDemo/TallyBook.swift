import Foundation
import NotifyKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The demo's own count of what it posted and what its handlers received, per name and thread:
/// the ground truth notifytop's numbers are checked against.
///
/// Each thread counts into its own ``ThreadTally`` (found through a pthread key, so counting is a
/// lookup and an uncontended lock), which keeps the stress scenario's posters from contending on
/// one counter. A snapshot locks each tally in turn.
final class TallyBook: @unchecked Sendable {  // `lock` guards `tallies`; each tally locks itself
    private let lock = NSLock()
    private var tallies: [ThreadTally] = []
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "pthread_key_create failed: \(result)")
        self.key = key
    }

    deinit {
        // glibc versions keys, so a later book reusing the number never sees these values.
        pthread_key_delete(key)
    }

    /// The calling thread's tally, created on first use.
    @inline(__always)
    var current: ThreadTally {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<ThreadTally>.fromOpaque(raw).takeUnretainedValue()
        }
        let tally = ThreadTally(thread: NotifyThread.current)
        lock.withLock { tallies.append(tally) }
        pthread_setspecific(key, Unmanaged.passUnretained(tally).toOpaque())
        return tally
    }

    /// Counts one post of `name` by the calling thread.
    @inline(__always)
    func countPost(_ name: DemoName) {
        current.add(post: name.rawValue)
    }

    /// Counts one handler run for `name` on the calling thread.
    @inline(__always)
    func countDelivery(_ name: DemoName) {
        current.add(delivery: name.rawValue)
    }

    /// Every thread's counts so far.
    func snapshot() -> [ThreadTally.Counts] {
        lock.withLock { tallies }.map { $0.counts }
    }
}

/// One thread's counters; written by that thread, read by snapshots.
final class ThreadTally: @unchecked Sendable {  // `lock` guards `posts` and `deliveries`
    /// A copy of one thread's counters.
    struct Counts: Sendable {
        let thread: NotifyThread
        let posts: [Int]
        let deliveries: [Int]
    }

    let thread: NotifyThread
    private let lock = NSLock()
    private var posts = [Int](repeating: 0, count: DemoName.allCases.count)
    private var deliveries = [Int](repeating: 0, count: DemoName.allCases.count)

    init(thread: NotifyThread) {
        self.thread = thread
    }

    @inline(__always)
    func add(post index: Int) {
        lock.lock()
        posts[index] &+= 1
        lock.unlock()
    }

    @inline(__always)
    func add(delivery index: Int) {
        lock.lock()
        deliveries[index] &+= 1
        lock.unlock()
    }

    var counts: Counts {
        lock.withLock { Counts(thread: thread, posts: posts, deliveries: deliveries) }
    }
}
