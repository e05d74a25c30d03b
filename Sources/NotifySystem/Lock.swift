#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#endif

/// The package's one lock: a pthread mutex, which ThreadSanitizer sees (it cannot see
/// `Synchronization.Mutex` on Linux). Debug builds check every pthread call's result.
package final class Lock: @unchecked Sendable {  // the pthread mutex is the synchronisation
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter ownCacheLine: Gives the mutex a 128-byte block of its own, for locks that
    ///   different threads take at once, so that they do not slow each other down.
    package init(ownCacheLine: Bool = false) {
        mutex =
            ownCacheLine
            ? UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128)
                .bindMemory(to: pthread_mutex_t.self, capacity: 1)
            : .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        var result = pthread_mutexattr_init(&attributes)
        assert(result == 0, "pthread_mutexattr_init failed: \(result)")
        defer {
            let result = pthread_mutexattr_destroy(&attributes)
            assert(result == 0, "pthread_mutexattr_destroy failed: \(result)")
        }
        // PTHREAD_MUTEX_ADAPTIVE_NP: spin briefly before sleeping; critical sections here are a few
        // dozen nanoseconds, far shorter than a futex round trip. Glibc's module hides the constant.
        result = pthread_mutexattr_settype(&attributes, 3)
        assert(result == 0, "pthread_mutexattr_settype failed: \(result)")
        result = pthread_mutex_init(mutex, &attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        let result = pthread_mutex_destroy(mutex)
        assert(result == 0, "pthread_mutex_destroy failed: \(result)")
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable
    package func lock() {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    @inlinable
    package func unlock() {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind a ``Lock``, for state that several threads share.
package final class LockedValue<Value>: @unchecked Sendable {  // `lock` guards `value`
    @usableFromInline
    let lock: Lock
    @usableFromInline
    var value: Value

    package init(_ value: Value, ownCacheLine: Bool = false) {
        self.lock = Lock(ownCacheLine: ownCacheLine)
        self.value = value
    }

    @inlinable
    @discardableResult
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
