/// Handler durations in bounded memory: a log-linear histogram (eight linear buckets per power of
/// two, like HdrHistogram with three significant bits) plus exact count, sum and maximum.
///
/// Why not keep every duration: an endless stream would grow without bound. With eight buckets
/// per octave a percentile is within 12.5 % of the true value, and it is reported as the bucket's
/// upper bound (never below the truth), clamped to the largest value seen.
///
/// ```swift
/// var histogram = LatencyHistogram()
/// histogram.record(1_400)
/// histogram.percentile(0.99)  // 1_400
/// ```
package struct LatencyHistogram: Sendable, Hashable {
    /// Linear sub-buckets per power of two.
    static let subBucketBits = 3
    static let subBuckets = 1 << subBucketBits
    /// Values below 2^44 ns (about 4.9 hours) get log-linear buckets; larger ones share the last.
    static let maximumExponent = 43
    /// The regular buckets, plus one for everything larger.
    static let bucketCount = (maximumExponent - subBucketBits + 2) * subBuckets + 1

    /// Allocated on the first value, so a row that never delivers pays nothing.
    private var counts: [UInt64] = []
    /// Values recorded.
    package private(set) var count: UInt64 = 0
    /// Sum of the values, for the mean.
    package private(set) var sum: UInt64 = 0
    /// The largest value recorded; 0 when empty.
    package private(set) var max: UInt64 = 0
    /// The smallest value recorded; 0 when empty.
    package private(set) var min: UInt64 = 0

    /// Creates an empty histogram.
    package init() {}

    /// The mean, or 0 when empty.
    package var mean: UInt64 { count == 0 ? 0 : sum / count }

    /// Adds one value (nanoseconds).
    @inline(__always)
    package mutating func record(_ value: UInt64) {
        if counts.isEmpty {
            counts = Array(repeating: 0, count: Self.bucketCount)
            min = value
        }
        counts[Self.bucket(of: value)] &+= 1
        count &+= 1
        sum &+= value
        if value > max { max = value }
        if value < min { min = value }
    }

    /// The value below which a fraction `p` (0...1) of the recorded values fall, rounded up to a
    /// bucket bound and clamped to ``max``; 0 when empty.
    package func percentile(_ p: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let clamped = Swift.min(Swift.max(p, 0), 1)
        let rank = Swift.max(1, UInt64((clamped * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in counts.indices {
            seen += counts[index]
            if seen >= rank { return Swift.min(Swift.max(Self.upperBound(of: index), min), max) }
        }
        return max
    }

    /// The 99th percentile: what the name table shows.
    package var p99: UInt64 { percentile(0.99) }

    @inline(__always)
    static func bucket(of value: UInt64) -> Int {
        if value < UInt64(subBuckets) { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        if exponent > maximumExponent { return bucketCount - 1 }
        let shifted = Int(truncatingIfNeeded: value >> UInt64(exponent - subBucketBits)) & (subBuckets - 1)
        return (exponent - subBucketBits + 1) * subBuckets + shifted
    }

    /// The largest value that falls into bucket `index`.
    static func upperBound(of index: Int) -> UInt64 {
        if index < subBuckets { return UInt64(index) }
        let exponent = index / subBuckets + subBucketBits - 1
        let sub = UInt64(index % subBuckets)
        let width = UInt64(1) << UInt64(exponent - subBucketBits)
        let lower = (UInt64(1) << UInt64(exponent)) + sub * width
        return index == bucketCount - 1 ? UInt64.max : lower + width - 1
    }
}
