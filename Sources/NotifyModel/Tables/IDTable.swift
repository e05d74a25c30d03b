/// Registration id → row slot: an open-addressing table with Fibonacci hashing.
///
/// Why not `Dictionary`: every delivery looks its registration up, and `Hasher` (SipHash) costs
/// more than the rest of that lookup. Registration ids are unique and increasing, so a
/// multiplicative hash spreads them well and linear probing stays short.
struct IDTable: Sendable {
    private static let empty: Int32 = -1
    private static let deleted: Int32 = -2

    private var keys: [UInt64]
    private var values: [Int32]
    private var shift: UInt64
    private(set) var count = 0
    private var used = 0

    init() {
        keys = Array(repeating: 0, count: 64)
        values = Array(repeating: Self.empty, count: 64)
        shift = 64 - 6
    }

    @inline(__always)
    private func home(_ id: UInt64) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot stored for `id`.
    @inline(__always)
    subscript(id: UInt64) -> Int? {
        let mask = keys.count - 1
        var index = home(id)
        while true {
            let value = values[index]
            if value == Self.empty { return nil }
            if value >= 0, keys[index] == id { return Int(value) }
            index = (index + 1) & mask
        }
    }

    /// Stores `slot` for `id`, replacing any earlier value.
    mutating func insert(_ id: UInt64, _ slot: Int) {
        if (used + 1) * 2 > keys.count {
            // Grow when live entries fill a quarter; otherwise only sweep the tombstones out.
            rehash(capacity: (count + 1) * 4 > keys.count ? keys.count * 2 : keys.count)
        }
        let mask = keys.count - 1
        var index = home(id)
        var firstDeleted: Int?
        while true {
            let value = values[index]
            if value == Self.empty { break }
            if value == Self.deleted {
                if firstDeleted == nil { firstDeleted = index }
            } else if keys[index] == id {
                values[index] = Int32(slot)
                return
            }
            index = (index + 1) & mask
        }
        let target = firstDeleted ?? index
        if firstDeleted == nil { used += 1 }
        keys[target] = id
        values[target] = Int32(slot)
        count += 1
    }

    /// Removes `id`; returns the slot it had.
    @discardableResult
    mutating func remove(_ id: UInt64) -> Int? {
        let mask = keys.count - 1
        var index = home(id)
        while true {
            let value = values[index]
            if value == Self.empty { return nil }
            if value >= 0, keys[index] == id {
                values[index] = Self.deleted
                count -= 1
                return Int(value)
            }
            index = (index + 1) & mask
        }
    }

    private mutating func rehash(capacity: Int) {
        var size = 64
        while size < capacity { size <<= 1 }
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: Self.empty, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        count = 0
        used = 0
        for index in oldValues.indices where oldValues[index] >= 0 {
            insert(oldKeys[index], Int(oldValues[index]))
        }
    }
}
