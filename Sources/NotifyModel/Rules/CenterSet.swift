/// The centers a name was posted to, in a stream of several centers (at most 256): a bit each.
/// `unknown` when posts came without their center (a late viewer's history counts posts per
/// name and thread only), so no rule may claim a center never saw the name.
struct CenterSet: Sendable, Hashable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private(set) var unknown = false

    /// Adds `center`; true when it was not there before.
    @inline(__always)
    mutating func insert(_ center: UInt32) -> Bool {
        let bit = UInt64(1) << UInt64(center & 63)
        switch center >> 6 {
        case 0: return Self.set(bit, in: &bits.0)
        case 1: return Self.set(bit, in: &bits.1)
        case 2: return Self.set(bit, in: &bits.2)
        case 3: return Self.set(bit, in: &bits.3)
        default: return false
        }
    }

    /// Some posts' centers are not known.
    mutating func markUnknown() { unknown = true }

    /// Whether `center` had a post, or might have had one.
    func mayContain(_ center: UInt32) -> Bool {
        guard !unknown else { return true }
        let bit = UInt64(1) << UInt64(center & 63)
        switch center >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        case 3: return bits.3 & bit != 0
        default: return true
        }
    }

    /// The known centers, in index order.
    var members: [UInt32] {
        (0..<256).map(UInt32.init).filter { center in
            let word = [bits.0, bits.1, bits.2, bits.3][Int(center >> 6)]
            return word & (UInt64(1) << UInt64(center & 63)) != 0
        }
    }

    static func == (lhs: CenterSet, rhs: CenterSet) -> Bool {
        lhs.bits == rhs.bits && lhs.unknown == rhs.unknown
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bits.0)
        hasher.combine(bits.1)
        hasher.combine(bits.2)
        hasher.combine(bits.3)
        hasher.combine(unknown)
    }

    @inline(__always)
    private static func set(_ bit: UInt64, in word: inout UInt64) -> Bool {
        guard word & bit == 0 else { return false }
        word |= bit
        return true
    }
}
