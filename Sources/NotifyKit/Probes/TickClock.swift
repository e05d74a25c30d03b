import CNotifyTicks
import Foundation
import Synchronization

/// The CPU's tick counter as ``MonotonicClock`` nanoseconds: what times probed deliveries.
///
/// A probed post reads the clock once per handler. Through the vDSO that read costs about 21 ns
/// on the machines we measure; the counter costs about 9. Each thread anchors the counter to
/// CLOCK_MONOTONIC (``ThreadContext/now()``) and anchors again after a millisecond, so an error in
/// the measured rate never adds up to more than a few nanoseconds.
///
/// The counter stands in only where the kernel itself keeps CLOCK_MONOTONIC on it (clock source
/// `tsc` on x86-64, the architected timer on AArch64), which promises a constant rate and counters
/// in step across CPUs. Elsewhere every read goes through ``MonotonicClock``.
enum TickClock {
    /// How a thread turns ticks into nanoseconds.
    struct Rate: Sendable {
        /// Nanoseconds per tick in 32.32 fixed point.
        let nanosPerTickQ32: UInt64
        /// Ticks in a millisecond: the longest a thread extrapolates from one anchor.
        let anchorSpan: UInt64

        /// A rate no reading falls within: every reading anchors again (or reads CLOCK_MONOTONIC).
        static let never = Rate(nanosPerTickQ32: 0, anchorSpan: 0)

        private init(nanosPerTickQ32: UInt64, anchorSpan: UInt64) {
            self.nanosPerTickQ32 = nanosPerTickQ32
            self.anchorSpan = anchorSpan
        }

        init?(ticksPerSecond: Double) {
            guard ticksPerSecond.isFinite, ticksPerSecond >= 1e6, ticksPerSecond <= 1e11 else { return nil }
            nanosPerTickQ32 = UInt64((1e9 / ticksPerSecond * 4_294_967_296).rounded())
            anchorSpan = UInt64(ticksPerSecond / 1000)
        }

        /// Nanoseconds in `ticks`, which must be below ``anchorSpan`` (so the product fits).
        @inline(__always)
        func nanos(inTicks ticks: UInt64) -> UInt64 {
            (ticks &* nanosPerTickQ32) >> 32
        }
    }

    /// nil where the counter may not stand in for CLOCK_MONOTONIC. Measuring it takes 2 ms, so
    /// ``NotifyCenter/attach(_:)`` asks for it before the first probed post needs it.
    static let rate: Rate? = measureRate()

    /// Set once ``rate`` is measured; ``isRateKnown()`` starts measuring it.
    private static let rateKnown = Atomic<Bool>(false)
    private static let rateRequested = Atomic<Bool>(false)

    /// Whether ``rate`` can be read without waiting; the first call that finds it unknown measures
    /// it on a thread of its own, so that no registration waits 2 ms.
    static func isRateKnown() -> Bool {
        if rateKnown.load(ordering: .acquiring) { return true }
        if !rateRequested.exchange(true, ordering: .relaxed) {
            Thread.detachNewThread {
                _ = rate
                rateKnown.store(true, ordering: .releasing)
            }
        }
        return false
    }

    /// A counter reading and a clock reading taken together, to within a few ticks.
    static func anchor() -> (ticks: UInt64, nanos: UInt64) {
        var best: (ticks: UInt64, nanos: UInt64, width: UInt64) = (0, 0, .max)
        for _ in 0..<3 {
            let before = notify_cpu_ticks()
            let nanos = MonotonicClock.now()
            let after = notify_cpu_ticks()
            if after &- before < best.width {
                best = (before &+ (after &- before) / 2, nanos, after &- before)
            }
        }
        return (best.ticks, best.nanos)
    }

    private static func measureRate() -> Rate? {
        defer { rateKnown.store(true, ordering: .releasing) }
        #if arch(x86_64)
        guard kernelClockSource() == "tsc" else { return nil }
        #elseif arch(arm64)
        let stated = notify_cpu_tick_frequency()
        if stated > 0 { return Rate(ticksPerSecond: Double(stated)) }
        #else
        return nil
        #endif
        let start = anchor()
        while MonotonicClock.now() &- start.nanos < 2_000_000 {}
        let end = anchor()
        guard end.ticks > start.ticks, end.nanos > start.nanos else { return nil }
        return Rate(ticksPerSecond: Double(end.ticks - start.ticks) * 1e9 / Double(end.nanos - start.nanos))
    }

    /// The clock source CLOCK_MONOTONIC is read from, such as "tsc" or "kvm-clock".
    static func kernelClockSource() -> String? {
        kernelLine("/sys/devices/system/clocksource/clocksource0/current_clocksource")
    }
}
