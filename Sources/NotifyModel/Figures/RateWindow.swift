/// A per-second rate over stream time: counts fall into fixed-width buckets aligned to multiples
/// of the width, and the last complete buckets make the rate and the sparkline history.
///
/// Why buckets and not timestamps: memory stays fixed (``InspectorConfiguration/rateHistoryLength``
/// buckets) however fast events come, and the figure is a pure function of event and tick times,
/// so a replay shows exactly what the live session showed.
package struct RateWindow: Sendable, Hashable {
    /// Nanoseconds per bucket.
    package let bucketWidth: UInt64
    /// Complete buckets that make up ``perSecond``.
    package let windowBuckets: Int
    private var history: RingBuffer<UInt64>
    /// Events in the bucket still open.
    package private(set) var current: UInt64 = 0
    /// Start of the open bucket; nil before the first event or tick.
    private var bucketStart: UInt64?
    private var bucketEnd: UInt64 = 0

    init(bucketWidth: UInt64, windowBuckets: Int, historyLength: Int) {
        self.bucketWidth = max(1, bucketWidth)
        self.windowBuckets = max(1, windowBuckets)
        history = RingBuffer(capacity: max(historyLength, windowBuckets))
    }

    /// Counts one event at `time`; moves the window on first if `time` is past the open bucket.
    @inline(__always)
    mutating func record(at time: UInt64) {
        if time >= bucketEnd { advance(to: time) }
        current &+= 1
    }

    /// Counts `count` events at `time` (counted elsewhere, told at once).
    mutating func record(count: UInt64, at time: UInt64) {
        if time >= bucketEnd { advance(to: time) }
        current &+= count
    }

    /// Keeps the largest value seen in the open bucket (a peak window: the slowest handler per
    /// second) instead of counting.
    @inline(__always)
    mutating func recordMaximum(_ value: UInt64, at time: UInt64) {
        if time >= bucketEnd { advance(to: time) }
        current = max(current, value)
    }

    /// Holds a level (live observers, open warnings) instead of counting: a closed bucket keeps
    /// the level it ended at and silent buckets repeat it, so the sparkline draws a count over time.
    @inline(__always)
    mutating func recordLevel(_ value: UInt64, at time: UInt64) {
        if time >= bucketEnd { advance(to: time, filling: current) }
        current = value
    }

    /// Closes every bucket that ends at or before `time`, pushing `filler` (zero for counts) for
    /// silent ones; the open bucket starts from `filler` too.
    mutating func advance(to time: UInt64, filling filler: UInt64 = 0) {
        guard let start = bucketStart else {
            let aligned = time - time % bucketWidth
            bucketStart = aligned
            bucketEnd = end(of: aligned)
            return
        }
        // A bucket that would end past the clock's range ends at its last value, and a time
        // before the open bucket (a clock that went back) closes nothing.
        guard time >= bucketEnd, time > start else { return }
        let elapsed = (time - start) / bucketWidth
        guard elapsed > 0 else { return }
        let pushes = min(elapsed, UInt64(history.capacity))
        history.append(current)
        current = filler
        var pushed: UInt64 = 1
        while pushed < pushes {
            history.append(filler)
            pushed += 1
        }
        let newStart = start + elapsed * bucketWidth
        bucketStart = newStart
        bucketEnd = end(of: newStart)
    }

    /// Where the bucket starting at `start` ends; the clock's last value when that is past it.
    private func end(of start: UInt64) -> UInt64 {
        let (end, overflow) = start.addingReportingOverflow(bucketWidth)
        return overflow ? .max : end
    }

    /// Events per second over the last ``windowBuckets`` complete buckets (fewer at the start of
    /// a session); 0 before the first bucket completes.
    package var perSecond: Double {
        let buckets = history.elements.suffix(windowBuckets)
        guard !buckets.isEmpty else { return 0 }
        let total = buckets.reduce(0, +)
        return Double(total) * 1e9 / (Double(buckets.count) * Double(bucketWidth))
    }

    /// Counts of the complete buckets, oldest first: a sparkline's data.
    package var recentBuckets: [UInt64] { history.elements }
}
