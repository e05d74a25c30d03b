import NotifyWire

/// A direct-mapped memo in front of the name table: name bytes → the slot last found for them.
///
/// Why: every post looks its name up, and hashing a `String` with `Hasher` (SipHash, seeded per
/// table) costs more than the rest of the lookup. A hint is only a guess: the caller confirms it
/// against the slot's row (occupied, same name), so a stale or colliding hint costs one compare
/// and is never wrong. Names from the wire share storage with the row's copy, which makes that
/// compare a pointer check.
struct NameSlotCache: Sendable {
    static let entryCount = 256
    private var slots = [Int32](repeating: 0, count: entryCount)

    /// The entry for `name`'s bytes.
    @inline(__always)
    static func entry(for name: String) -> Int {
        var name = name
        let hash = name.withUTF8 { bytes in bytes.baseAddress.map { ByteHash.of($0, bytes.count) } ?? 0 }
        return Int(truncatingIfNeeded: hash) & (entryCount - 1)
    }

    /// The slot last stored at `entry`; 0 when none (slot 0, the wildcard row, is never a name's).
    @inline(__always)
    func hint(_ entry: Int) -> Int { Int(slots[entry]) }

    @inline(__always)
    mutating func remember(_ slot: Int, at entry: Int) {
        slots[entry] = Int32(truncatingIfNeeded: slot)
    }
}
