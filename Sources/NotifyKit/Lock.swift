#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex: ThreadSanitizer understands it, unlike `Synchronization.Mutex` on Linux.
@usableFromInline
final class Lock: @unchecked Sendable {  // the pthread mutex is the synchronisation
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter ownCacheLine: Gives the mutex a 128-byte block of its own, for locks that
    ///   different threads take at once, so that they do not slow each other down.
    @usableFromInline
    init(ownCacheLine: Bool = false) {
        mutex = ownCacheLine
            ? UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128).bindMemory(to: pthread_mutex_t.self, capacity: 1)
            : .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        #if os(Linux)
        // PTHREAD_MUTEX_ADAPTIVE_NP: spin briefly before sleeping; critical sections here are a few
        // dozen nanoseconds, far shorter than a futex round trip. Glibc's module hides the constant.
        pthread_mutexattr_settype(&attributes, 3)
        #endif
        let result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable
    func lock() { pthread_mutex_lock(mutex) }

    @inlinable
    func unlock() { pthread_mutex_unlock(mutex) }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value behind a `Lock`, for state touched from several threads off the hot path.
final class LockedValue<Value>: @unchecked Sendable {  // `lock` guards `value`
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
