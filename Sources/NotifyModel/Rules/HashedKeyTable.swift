/// A map from already-hashed 64-bit keys to 32-bit values, open-addressed with linear probing:
/// the keys' bits are spread already, so it skips the hashing a `Dictionary` does per lookup,
/// which was most of a ``NearNameIndex`` lookup's cost.
///
/// A table keeps 32 bits of each key (its home slot comes from them too), beside the value in one
/// word, so a lookup reads one cache line: keys that differ only in the other bits are taken for
/// one another, which for ``NearNameIndex`` only adds a candidate to compare.
struct HashedKeyTable: Sendable {
    /// The key's high 32 bits (never 0, which marks an empty slot) over the value.
    private var slots: [UInt64]
    private(set) var count = 0

    /// A table that holds `capacity` keys before it grows.
    init(capacity: Int = 8) {
        var size = 16
        while size < 2 * capacity, size < 1 << 40 { size *= 2 }
        slots = Array(repeating: 0, count: size)
    }

    private static func tag(_ key: UInt64) -> UInt64 {
        let tag = key >> 32
        return (tag == 0 ? 1 : tag) << 32
    }

    subscript(key: UInt64) -> Int32? {
        let tag = Self.tag(key)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: tag >> 32) & mask
        while true {
            let slot = slots[index]
            if slot & 0xffff_ffff_0000_0000 == tag { return Int32(truncatingIfNeeded: slot) }
            if slot == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Sets the value of `key`, returning the one it replaces.
    @discardableResult
    mutating func update(_ value: Int32, forKey key: UInt64) -> Int32? {
        if (count + 1) * 2 > slots.count { grow() }
        let tag = Self.tag(key)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: tag >> 32) & mask
        let stored = tag | UInt64(UInt32(bitPattern: value))
        while true {
            let slot = slots[index]
            if slot & 0xffff_ffff_0000_0000 == tag {
                slots[index] = stored
                return Int32(truncatingIfNeeded: slot)
            }
            if slot == 0 {
                slots[index] = stored
                count += 1
                return nil
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        count = 0
        for slot in old where slot != 0 {
            update(Int32(truncatingIfNeeded: slot), forKey: slot)
        }
    }
}
