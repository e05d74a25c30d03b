/// Reads a Swift `String` from the two words it is passed in (Swift 6 on 64-bit Linux).
package enum SwiftStringWords {
    /// A small string: up to 15 UTF-8 bytes held in the words themselves, little-endian, the low
    /// word first; the high word's top byte is `0xE0 | count` for ASCII (`0xA0 | count` otherwise).
    /// Nil when the words do not hold a small string or its bytes are not UTF-8.
    package static func smallString(low: UInt64, high: UInt64) -> String? {
        let discriminator = UInt8(truncatingIfNeeded: high >> 56)
        guard discriminator & 0x20 != 0 else { return nil }
        let count = Int(discriminator & 0x0F)
        guard count <= 15 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in 0..<count {
            let word = index < 8 ? low : high
            bytes.append(UInt8(truncatingIfNeeded: word >> (UInt64(index % 8) * 8)))
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
