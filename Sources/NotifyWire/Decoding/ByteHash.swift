/// A fast, unseeded hash of a few bytes (names, mostly) for direct-mapped caches that check each
/// hit against the bytes themselves: eight bytes at a time, multiply and rotate, good enough to
/// spread names over the slots. Not for dictionaries or anything an adversary could collide.
package enum ByteHash {
    @inline(__always)
    package static func of(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            hash = rotateLeft((hash ^ word) &* 0xBF58_476D_1CE4_E5B9, 31)
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
            hash = rotateLeft((hash ^ word) &* 0xBF58_476D_1CE4_E5B9, 31)
        }
        return hash ^ (hash >> 29)
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
