import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What every observer is: a block delivered on the posting thread.
typealias Handler = @Sendable (Notification) -> Void

/// One observer's delivery count: the small, fixed amount of work every handler does.
///
/// The count lives in a heap object the handler captures and the benchmark reads afterwards, so
/// the optimizer cannot drop the increment; `@exclusivity(unchecked)` keeps the runtime's access
/// check, which would cost more than the work itself, out of every variant alike.
final class Counter: @unchecked Sendable {  // written only by the thread that posts; read after posting stops
    @exclusivity(unchecked) var count = 0
}

enum Handlers {
    /// Adds one to `counter` per delivery. Making the closure allocates its context (one box).
    static func counting(into counter: Counter) -> Handler {
        { _ in counter.count &+= 1 }
    }

    /// Adds one to the delivering thread's own counter (see ``ThreadCounter``), so observers on
    /// two posting threads never write the same cache line. Captures nothing.
    static let countingPerThread: Handler = { _ in ThreadCounter.current.pointee &+= 1 }
}

/// A delivery count per thread, reached through a pthread key, for the contention benchmark.
enum ThreadCounter {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "pthread_key_create failed: \(result)")
        return key
    }()

    /// Makes `counter` the calling thread's count; it must stay allocated while the thread delivers.
    static func install(_ counter: UnsafeMutablePointer<Int>) {
        pthread_setspecific(key, counter)
    }

    /// The calling thread's count; the thread must have called ``install(_:)``.
    static var current: UnsafeMutablePointer<Int> {
        pthread_getspecific(key).unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
    }
}
