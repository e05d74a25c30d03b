/// The byte-level pieces of the encoder: literals, integers and escaped strings appended straight
/// into a `[UInt8]`, with no intermediate `String` and no Foundation.
///
/// Each JSON value is written by one ``LineWriter`` method; these append what it writes, so a
/// line built piece by piece and a line written at once have the same bytes.
extension Array where Element == UInt8 {
    /// Appends a literal fragment such as `,"seq":`; the bytes are copied with one `memcpy`.
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal.
    @inline(__always)
    mutating func appendDecimal(_ value: UInt64) {
        appendLine(bound: LineWriter.decimalBound) { $0.appendDecimal(value) }
    }

    /// Appends a signed `value` in decimal.
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        appendLine(bound: LineWriter.decimalBound) { $0.appendDecimal(value) }
    }

    /// Appends `value` as a JSON string of lowercase hex, `"0x7f3a…"`.
    mutating func appendHexString(_ value: UInt64) {
        appendLine(bound: LineWriter.hexStringBound) { $0.appendHexString(value) }
    }

    /// Appends `true` or `false`.
    @inline(__always)
    mutating func appendBool(_ value: Bool) {
        appendLine(bound: LineWriter.boolBound) { $0.appendBool(value) }
    }

    /// Appends `value` as a JSON integer, or `null`.
    @inline(__always)
    mutating func appendOptionalDecimal(_ value: UInt64?) {
        if let value { appendDecimal(value) } else { appendLiteral("null") }
    }

    /// Appends `value` as a quoted JSON string, or `null`.
    @inline(__always)
    mutating func appendOptionalString(_ value: String?) {
        if let value { appendJSONString(value) } else { appendLiteral("null") }
    }

    /// Appends `string` quoted, escaped as ``LineWriter/appendJSONString(_:)`` escapes it.
    mutating func appendJSONString(_ string: String) {
        append(0x22)
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0) }
        }
        append(0x22)
    }

    /// Escapes `bytes` in pieces whose worst case fits scratch memory on the stack: escaping goes
    /// byte by byte, so where a piece ends changes nothing.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        let piece = 128
        var start = 0
        while start < bytes.count {
            let end = Swift.min(start + piece, bytes.count)
            let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
            appendLine(bound: LineWriter.bound(fixed: 0, stringBytes: part.count)) { $0.appendEscaped(part) }
            start = end
        }
    }
}

/// Writes one line into memory the caller reserved, through a pointer: the encoder's hot lines
/// (posts, deliveries, registrations, queue activity) are written this way and appended to the
/// output with one copy, instead of one `Array.append` per fragment.
///
/// The caller reserves at least ``bound(fixed:stringBytes:)`` bytes; nothing here checks.
struct LineWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private var position: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.position = start
    }

    /// Bytes written so far.
    var count: Int { position - start }

    /// The most a line can take: `fixed` for its keys, numbers, literals and quotes, plus its
    /// strings' `stringBytes` escaped at worst (six bytes a byte).
    @inline(__always)
    static func bound(fixed: Int, stringBytes: Int) -> Int { fixed + 6 * stringBytes }

    /// The most ``appendDecimal(_:)-(UInt64)`` writes: a sign and 19 digits, or 20 digits.
    static var decimalBound: Int { 20 }
    /// The most ``appendHexString(_:)`` writes: quotes, `0x` and 16 digits.
    static var hexStringBound: Int { 20 }
    /// The most ``appendBool(_:)`` writes.
    static var boolBound: Int { 5 }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        position.pointee = byte
        position += 1
    }

    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        let count = literal.utf8CodeUnitCount
        position.update(from: literal.utf8Start, count: count)
        position += count
    }

    /// Appends `count` bytes from `bytes` as they are.
    @inline(__always)
    mutating func appendRaw(_ bytes: UnsafePointer<UInt8>, count: Int) {
        position.update(from: bytes, count: count)
        position += count
    }

    @inline(__always)
    mutating func appendKind(_ kind: WireKind) { appendLiteral(kind.opening) }

    @inline(__always)
    mutating func appendKey(_ key: WireKey) { appendLiteral(key.opening) }

    /// Appends `value` in decimal: digits are counted first, then written from the last, two at a
    /// time from a table; a long value splits into 8-digit parts whose halves convert independently.
    @inline(__always)
    mutating func appendDecimal(_ value: UInt64) {
        if value < 100 {
            if value < 10 {
                appendByte(0x30 &+ UInt8(truncatingIfNeeded: value))
            } else {
                Self.writePair(UInt32(truncatingIfNeeded: value), at: position)
                position += 2
            }
            return
        }
        let digits = Self.decimalDigits(value)
        var cursor = position + digits
        var remaining = value
        while remaining >= 100_000_000 {
            let (quotient, part) = remaining.quotientAndRemainder(dividingBy: 100_000_000)
            cursor -= 8
            Self.writeEight(UInt32(truncatingIfNeeded: part), at: cursor)
            remaining = quotient
        }
        var small = UInt32(truncatingIfNeeded: remaining)
        while small >= 100 {
            let (quotient, pair) = small.quotientAndRemainder(dividingBy: 100)
            cursor -= 2
            Self.writePair(pair, at: cursor)
            small = quotient
        }
        if small >= 10 {
            Self.writePair(small, at: cursor - 2)
        } else {
            (cursor - 1).pointee = 0x30 &+ UInt8(truncatingIfNeeded: small)
        }
        position += digits
    }

    /// The decimal digits of `value` (at least 1): from its bit width, corrected by one comparison.
    @inline(__always)
    static func decimalDigits(_ value: UInt64) -> Int {
        let bits = 64 - (value | 1).leadingZeroBitCount
        let estimate = (bits &* 1233) &>> 12  // ⌊bits × log10(2)⌋: the digits, or one less
        return value >= powersOfTen[estimate] ? estimate &+ 1 : estimate
    }

    /// 10⁰ … 10¹⁹.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// Writes the 8 digits of `part` (< 10⁸), leading zeros included.
    @inline(__always)
    private static func writeEight(_ part: UInt32, at cursor: UnsafeMutablePointer<UInt8>) {
        let (high, low) = part.quotientAndRemainder(dividingBy: 10_000)
        let (first, second) = high.quotientAndRemainder(dividingBy: 100)
        let (third, fourth) = low.quotientAndRemainder(dividingBy: 100)
        writePair(first, at: cursor)
        writePair(second, at: cursor + 2)
        writePair(third, at: cursor + 4)
        writePair(fourth, at: cursor + 6)
    }

    /// Writes the two digits of `pair` (< 100).
    @inline(__always)
    private static func writePair(_ pair: UInt32, at cursor: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(cursor).copyMemory(
            from: UnsafeRawPointer(digitPairs.utf8Start) + Int(pair) &* 2, byteCount: 2)
    }

    private static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        if value < 0 {
            appendByte(0x2D)
            appendDecimal(UInt64(truncatingIfNeeded: value.magnitude))
        } else {
            appendDecimal(UInt64(truncatingIfNeeded: value))
        }
    }

    @inline(__always)
    mutating func appendBool(_ value: Bool) {
        if value { appendLiteral("true") } else { appendLiteral("false") }
    }

    /// Appends `value` as a JSON string of lowercase hex, `"0x7f3a…"`.
    mutating func appendHexString(_ value: UInt64) {
        appendLiteral("\"0x")
        let digitCount = value == 0 ? 1 : (67 - value.leadingZeroBitCount) / 4
        var shift = (digitCount - 1) * 4
        while shift >= 0 {
            appendByte(LineWriter.hexDigits.utf8Start[Int(truncatingIfNeeded: (value >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
        appendByte(0x22)
    }

    @inline(__always)
    mutating func appendOptionalDecimal(_ value: UInt64?) {
        if let value { appendDecimal(value) } else { appendLiteral("null") }
    }

    @inline(__always)
    mutating func appendOptionalString(_ value: String?) {
        if let value { appendJSONString(value) } else { appendLiteral("null") }
    }

    /// Appends `string` quoted, escaping `"`, `\` and control characters; everything else,
    /// non-ASCII included, passes through as UTF-8.
    mutating func appendJSONString(_ string: String) {
        appendByte(0x22)
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = string
            copy.withUTF8 { appendEscaped($0) }
        }
        appendByte(0x22)
    }

    /// Appends `bytes` escaped, without quotes; runs that need no escaping are copied whole.
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them may need escaping: the usual name.
            if index + 8 <= bytes.count
                && !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = base[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
                index += 1
                continue
            }
            if runStart < index {
                position.update(from: base + runStart, count: index - runStart)
                position += index - runStart
            }
            switch byte {
            case 0x22: appendLiteral("\\\"")
            case 0x5C: appendLiteral("\\\\")
            case 0x0A: appendLiteral("\\n")
            case 0x0D: appendLiteral("\\r")
            case 0x09: appendLiteral("\\t")
            case 0x08: appendLiteral("\\b")
            case 0x0C: appendLiteral("\\f")
            default:
                appendLiteral("\\u00")
                appendByte(LineWriter.hexDigits.utf8Start[Int(byte >> 4)])
                appendByte(LineWriter.hexDigits.utf8Start[Int(byte & 0xF)])
            }
            index += 1
            runStart = index
        }
        if runStart < bytes.count {
            position.update(from: base + runStart, count: bytes.count - runStart)
            position += bytes.count - runStart
        }
    }

    private static var hexDigits: StaticString { "0123456789abcdef" }

    /// Whether any of the eight bytes in `word` may be a control character, `"` or `\`; never
    /// false when one is (a borrow can only add false alarms, which the byte loop then clears).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote & highs
        let zeroInBackslash = (backslash &- ones) & ~backslash & highs
        return control | zeroInQuote | zeroInBackslash != 0
    }
}

extension Array where Element == UInt8 {
    /// Appends one line that `write` writes through a ``LineWriter`` into scratch memory of
    /// `bound` bytes (on the stack for the lines of ordinary length), with one copy.
    @inline(__always)
    mutating func appendLine(bound: Int, _ write: (inout LineWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            guard let base = scratch.baseAddress else { return }
            var line = LineWriter(base)
            write(&line)
            append(contentsOf: UnsafeBufferPointer(start: base, count: line.count))
        }
    }
}
