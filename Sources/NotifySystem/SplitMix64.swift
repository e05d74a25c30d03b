/// A seeded SplitMix64 generator (Steele, Lea and Flood 2014; Vigna's constants): the demo's only
/// source of choices, and the tests' randomised scenarios, chunkings and ticks.
///
/// Every decision the demo's workload makes (which screen opens, which name is posted, which bug
/// fires when) is drawn from one of these, so a seed reproduces the run. The bounded draws are
/// written out here rather than taken from `Int.random(in:using:)`, whose algorithm the standard
/// library may change, so a seed keeps meaning the same sequence across toolchains.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let lane = rng.fork(1)          // an independent stream for worker 1
/// if rng.chance(0.1) { … }
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Starts the stream at `seed`; every seed, including 0, gives a full-period stream.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An independent stream for one lane (thread) of the workload, so each thread's choices
    /// depend only on the seed and the lane, never on how threads interleave.
    package func fork(_ lane: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: state ^ (lane &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-shift, with rejection of the biased tail).
    package mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold {
                product = next().multipliedFullWidth(by: limit)
            }
        }
        return Int(product.high)
    }

    /// True with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// A uniform value in `0..<1` with 53 bits of precision.
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// An index into `weights`, chosen with probability proportional to its weight.
    package mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        precondition(total > 0, "weights must not all be zero")
        var pick = below(total)
        for (index, weight) in weights.enumerated() {
            if pick < weight { return index }
            pick -= weight
        }
        return weights.count - 1
    }
}
