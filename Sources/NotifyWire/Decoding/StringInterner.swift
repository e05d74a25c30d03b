/// Gives back the same `String` for the same bytes, so a stream that repeats a few hundred
/// notification names makes each one once instead of once per line (an allocation, a copy and a
/// UTF-8 check each time).
///
/// A direct-mapped cache: one slot per hash, replaced on a collision, and a hit is checked byte
/// for byte, so the result is always exactly `String(decoding: bytes, as: UTF8.self)` and memory
/// stays bounded. Strings of up to 15 bytes are stored inline by `String` itself and are cheaper
/// to make than to look up, so they are not cached.
struct StringInterner: Sendable {
    static let slotCount = 1_024
    /// Longer strings are rare (labels, messages) and not worth a slot.
    static let maximumLength = 128
    static let smallStringLength = 15

    private var hashes: [UInt64] = []
    private var strings: [String] = []

    /// The string for `bytes` (UTF-8, invalid sequences repaired as `String(decoding:as:)` does).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        guard count > Self.smallStringLength, count <= Self.maximumLength, let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        if hashes.isEmpty {
            hashes = Array(repeating: 0, count: Self.slotCount)
            strings = Array(repeating: "", count: Self.slotCount)
        }
        let hash = ByteHash.of(base, count)
        let slot = Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        if hashes[slot] == hash {
            let cached = strings[slot]
            let same = cached.utf8.withContiguousStorageIfAvailable { Self.equal($0, base, count) } ?? false
            if same { return cached }
        }
        let made = String(decoding: bytes, as: UTF8.self)
        hashes[slot] = hash
        strings[slot] = made
        return made
    }

    @inline(__always)
    private static func equal(_ cached: UnsafeBufferPointer<UInt8>, _ base: UnsafePointer<UInt8>, _ count: Int) -> Bool
    {
        guard cached.count == count, let other = cached.baseAddress else { return false }
        var offset = 0
        while offset + 8 <= count {
            guard
                UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(other + offset).loadUnaligned(as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard base[offset] == other[offset] else { return false }
            offset += 1
        }
        return true
    }
}
