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
        let hash = Self.hash(base, count)
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

    /// Eight bytes at a time, multiply and rotate: good enough to spread names over the slots.
    @inline(__always)
    private static func hash(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            hash = ((hash ^ word) &* 0xBF58_476D_1CE4_E5B9).rotateLeft(31)
            offset += 8
        }
        if offset < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                word |= UInt64(base[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = ((hash ^ word) &* 0xBF58_476D_1CE4_E5B9).rotateLeft(31)
        }
        return hash ^ (hash >> 29)
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

extension UInt64 {
    @inline(__always)
    fileprivate func rotateLeft(_ bits: UInt64) -> UInt64 {
        (self << bits) | (self >> (64 - bits))
    }
}
