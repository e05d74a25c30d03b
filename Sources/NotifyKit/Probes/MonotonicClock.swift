#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The clock every event is stamped with: CLOCK_MONOTONIC in nanoseconds, read through the vDSO.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary point fixed at boot; comparable across threads and processes.
    @inlinable
    package static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
