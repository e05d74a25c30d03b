/// Names that may be near a given one (``NameSimilarity``), found without comparing it with every
/// name: each name is filed under keys that every name near it shares with it, so a lookup reads
/// only the names filed under the query's keys, and ``NameSimilarity/nearness(_:_:maximumDistance:)``
/// then decides.
///
/// The keys, for a name whose lowercased scalars are L and whose core (``NameSimilarity``) is C:
/// - all of L: equal ignoring case;
/// - each of k + 1 pieces of L, and of C, by length and position: an edit distance of at most k
///   leaves one piece whole, shifted by at most k (the pigeonhole filter);
/// - all of C, forwards and backwards: a shorter core that begins or ends a longer one;
/// - C's first and last 8, 16, …, 256 scalars: a longer core the query's core begins or ends.
///
/// Keys are 64-bit hashes: a collision only adds a name to compare. Names are filed by their row
/// slot, never unfiled: a lookup's caller checks each slot's row as it is now. A lookup skips the
/// pieces of lengths no filed name has.
struct NearNameIndex: Sendable {
    /// The distance the pieces were cut for.
    let maximumDistance: Int
    /// Filed entries a lookup reads at most; past it, the lookup is cut short.
    static let maximumEntriesRead = 4_096
    /// Farther distances are not indexed (the pieces get too many): ``isUsable`` is false.
    static let maximumIndexedDistance = 8

    private var heads = HashedKeyTable()
    /// The lengths of the names (lowercased) and of the cores filed, as bits.
    private var loweredLengths = LengthSet()
    private var coreLengths = LengthSet()
    private var next: [Int32] = []
    private var slots: [Int32] = []
    /// Names filed since the index was made.
    private(set) var filed = 0

    /// An index with room for `expectedNames` names before its table grows.
    init(maximumDistance: Int, expectedNames: Int = 0) {
        self.maximumDistance = maximumDistance
        heads = HashedKeyTable(capacity: expectedNames * Self.keysPerName)
    }

    /// Keys a typical name is filed under (with a distance of 2 and a core of 16 to 31 scalars).
    private static let keysPerName = 10

    var isUsable: Bool { (0...Self.maximumIndexedDistance).contains(maximumDistance) }

    /// Files the name in row `slot`.
    mutating func file(_ name: String, slot: Int) {
        guard isUsable, let slot = Int32(exactly: slot) else { return }
        filed += 1
        let lowered = Array(name.lowercased().unicodeScalars)
        add(Self.hash(.whole, lowered[...]), slot)
        guard lowered.count <= NameSimilarity.maximumComparedLength else { return }
        let core = NameSimilarity.core(lowered)
        loweredLengths.insert(lowered.count)
        coreLengths.insert(core.count)
        for piece in Self.pieces(of: lowered.count, maximumDistance) {
            add(Self.hash(.loweredPiece, lowered[piece.range], length: lowered.count, piece: piece.index), slot)
        }
        // A core that is the whole name is found by its name's pieces (see `candidates`).
        if core.count != lowered.count {
            for piece in Self.pieces(of: core.count, maximumDistance) {
                add(Self.hash(.corePiece, core[piece.range], length: core.count, piece: piece.index), slot)
            }
        }
        guard core.count >= NameSimilarity.minimumAffixLength else { return }
        add(Self.hash(.core, core[...]), slot)
        add(Self.hash(.coreBackwards, core.reversed()[...]), slot)
        var length = NameSimilarity.minimumAffixLength
        while length <= core.count {
            add(Self.hash(.corePrefix, core.prefix(length)), slot)
            add(Self.hash(.coreSuffixBackwards, core.suffix(length).reversed()[...]), slot)
            length *= 2
        }
    }

    /// The slots of the filed names that may be near `name`, ascending, and whether they are all
    /// of them (false when the lookup read ``maximumEntriesRead`` entries and stopped); nil when
    /// the index is not usable.
    func candidates(near name: String) -> (slots: [Int], complete: Bool)? {
        guard isUsable else { return nil }
        var found: [Int32] = []
        var budget = Self.maximumEntriesRead
        let lowered = Array(name.lowercased().unicodeScalars)
        var complete = read(Self.hash(.whole, lowered[...]), into: &found, budget: &budget)
        if complete, lowered.count <= NameSimilarity.maximumComparedLength {
            let core = NameSimilarity.core(lowered)
            // Filed names whose core is the whole name filed its pieces as the name's.
            complete =
                readPieces(of: lowered, .loweredPiece, filed: loweredLengths, into: &found, budget: &budget)
                && readPieces(of: core, .corePiece, filed: coreLengths, into: &found, budget: &budget)
                && (core.count == lowered.count
                    || readPieces(of: core, .loweredPiece, filed: loweredLengths, into: &found, budget: &budget))
                && readAffixes(of: core, into: &found, budget: &budget)
        }
        found.sort()
        var slots: [Int] = []
        slots.reserveCapacity(found.count)
        for slot in found where slots.last != Int(slot) { slots.append(Int(slot)) }
        return (slots, complete)
    }

    // MARK: Lookup

    /// Every filed piece the query's substrings could be: for each length within the distance,
    /// each piece of that length's cut, shifted by up to the distance.
    private func readPieces(
        of scalars: [Unicode.Scalar], _ kind: Kind, filed: LengthSet, into found: inout [Int32], budget: inout Int
    ) -> Bool {
        let k = maximumDistance
        let longest = min(NameSimilarity.maximumComparedLength, scalars.count + k)
        for length in max(0, scalars.count - k)...max(0, longest) where filed.contains(length) {
            for piece in Self.pieces(of: length, k) {
                for shift in -k...k {
                    let start = piece.range.lowerBound + shift
                    let end = start + piece.range.count
                    guard start >= 0, end <= scalars.count else { continue }
                    let key = Self.hash(kind, scalars[start..<end], length: length, piece: piece.index)
                    guard read(key, into: &found, budget: &budget) else { return false }
                }
            }
        }
        return true
    }

    /// Filed cores that begin or end the query's core, and filed cores it begins or ends.
    private func readAffixes(of core: [Unicode.Scalar], into found: inout [Int32], budget: inout Int) -> Bool {
        let shortest = NameSimilarity.minimumAffixLength
        guard core.count >= shortest else { return true }
        var forwards = Self.start(.core)
        var backwards = Self.start(.coreBackwards)
        for length in 1...core.count {
            forwards = Self.mix(forwards, core[length - 1])
            backwards = Self.mix(backwards, core[core.count - length])
            guard length >= shortest, coreLengths.contains(length) else { continue }
            guard read(Self.finish(forwards, count: length), into: &found, budget: &budget),
                read(Self.finish(backwards, count: length), into: &found, budget: &budget)
            else { return false }
        }
        var filedLength = shortest
        while filedLength * 2 <= core.count { filedLength *= 2 }
        return read(Self.hash(.corePrefix, core.prefix(filedLength)), into: &found, budget: &budget)
            && read(
                Self.hash(.coreSuffixBackwards, core.suffix(filedLength).reversed()[...]), into: &found,
                budget: &budget)
    }

    private func read(_ key: UInt64, into found: inout [Int32], budget: inout Int) -> Bool {
        var entry = heads[key] ?? -1
        while entry >= 0 {
            guard budget > 0 else { return false }
            budget -= 1
            found.append(slots[Int(entry)])
            entry = next[Int(entry)]
        }
        return true
    }

    private mutating func add(_ key: UInt64, _ slot: Int32) {
        let entry = Int32(truncatingIfNeeded: slots.count)
        slots.append(slot)
        next.append(heads.update(entry, forKey: key) ?? -1)
    }

    /// Lengths 0 through ``NameSimilarity/maximumComparedLength``, as bits.
    struct LengthSet: Sendable {
        private var words = [UInt64](repeating: 0, count: NameSimilarity.maximumComparedLength / 64 + 1)

        mutating func insert(_ length: Int) {
            guard words.indices.contains(length >> 6) else { return }
            words[length >> 6] |= 1 << UInt64(length & 63)
        }

        func contains(_ length: Int) -> Bool {
            words.indices.contains(length >> 6) && words[length >> 6] & (1 << UInt64(length & 63)) != 0
        }
    }

    // MARK: Keys

    private enum Kind: UInt64 {
        case whole = 1, loweredPiece, corePiece, core, coreBackwards, corePrefix, coreSuffixBackwards
    }

    /// The k + 1 pieces a name of `length` scalars is cut into: the same cut for every name of
    /// that length. Some are empty when the name is shorter than k + 1.
    private static func pieces(of length: Int, _ k: Int) -> Pieces { Pieces(length: length, count: k + 1) }

    /// The cut of ``pieces(of:_:)``, computed as it is read (a lookup reads many cuts).
    struct Pieces: Sequence, IteratorProtocol {
        let length: Int
        let count: Int
        private var index = 0

        init(length: Int, count: Int) {
            self.length = length
            self.count = count
        }

        mutating func next() -> (index: Int, range: Range<Int>)? {
            guard index < count else { return nil }
            defer { index += 1 }
            let short = length / count
            let firstLonger = count - length % count
            let start = index * short + Swift.max(0, index - firstLonger)
            return (index, start..<start + short + (index >= firstLonger ? 1 : 0))
        }
    }

    private static func hash(
        _ kind: Kind, _ scalars: some Collection<Unicode.Scalar>, length: Int = 0, piece: Int = 0
    ) -> UInt64 {
        var hash = start(kind, length: length, piece: piece)
        for scalar in scalars { hash = mix(hash, scalar) }
        return finish(hash, count: scalars.count)
    }

    private static func start(_ kind: Kind, length: Int = 0, piece: Int = 0) -> UInt64 {
        let seed = 0xcbf2_9ce4_8422_2325 ^ (kind.rawValue &* 0x9e37_79b9_7f4a_7c15)
        return mix(mix(seed, UInt64(truncatingIfNeeded: length)), UInt64(truncatingIfNeeded: piece))
    }

    private static func mix(_ hash: UInt64, _ scalar: Unicode.Scalar) -> UInt64 { mix(hash, UInt64(scalar.value)) }

    private static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 { (hash ^ value) &* 0x0000_0100_0000_01b3 }

    /// Mixes in the count (so a prefix read as it grows matches the same scalars hashed at once)
    /// and spreads the bits.
    private static func finish(_ hash: UInt64, count: Int) -> UInt64 {
        var value = mix(hash, UInt64(truncatingIfNeeded: count) | 1 << 63)
        value ^= value >> 33
        value &*= 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        return value
    }
}
