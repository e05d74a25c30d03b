/// The JSON type of a scanned value, as far as the decoder needs to know it.
enum JSONValueType: UInt8 {
    /// A string with no backslash: its bytes are the value.
    case plainString
    /// A string with escapes, decoded only if a field reads it.
    case escapedString
    /// A number in integer form (`-?digits`).
    case integer
    /// A number with a fraction or exponent; no known field holds one.
    case fraction
    case `true`, `false`, null
    /// An object or array; no known field holds one, so it is only validated and skipped.
    case nested
}

/// One member of a line's top-level object, as offsets into the line: nothing is copied or
/// decoded until a field is read.
struct JSONField {
    /// Offsets of the key's content, between the quotes.
    var keyStart: Int
    var keyEnd: Int
    /// Offsets of the value: string content without quotes, or the literal's bytes.
    var valueStart: Int
    var valueEnd: Int
    var type: JSONValueType
    var keyEscaped: Bool
}

/// A syntax error: the byte offset where it was found and what was expected there.
struct JSONSyntaxError: Error {
    var offset: Int
    var problem: String
}

/// Scans one line holding one JSON object into a flat list of its members.
///
/// Hand-written for speed: one pass, no allocation beyond the reused `fields` array. It checks the
/// full JSON grammar (so a malformed line is reported, not misread) but interprets nothing:
/// nested objects and arrays, which no known field holds, are validated and skipped, which is how
/// fields added by newer minor versions are ignored.
struct JSONObjectScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    /// Scans `line` (without its newline) into `fields`, which is emptied first.
    ///
    /// - Returns: False for a blank line (whitespace only), which holds no object.
    static func scan(_ line: UnsafeBufferPointer<UInt8>, into fields: inout [JSONField]) throws(JSONSyntaxError) -> Bool
    {
        fields.removeAll(keepingCapacity: true)
        var scanner = JSONObjectScanner(bytes: line)
        scanner.skipWhitespace()
        guard scanner.index < line.count else { return false }
        try scanner.scanObject(into: &fields)
        return true
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte at the cursor, or 0 at the end of the line (0 is never valid where it is checked).
    @inline(__always)
    private var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D, 0x0A: index += 1
            default: return
            }
        }
    }

    private func fail(_ problem: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, problem: index < bytes.count ? problem : problem + ", found the end of the line")
    }

    private mutating func scanObject(into fields: inout [JSONField]) throws(JSONSyntaxError) {
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { throw fail("expected '{' to start the line's object") }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                guard peek == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
                let key = try scanString()
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                index += 1
                skipWhitespace()
                let valueStart = index
                let type = try scanValue(depth: 1)
                var start = valueStart
                var end = index
                if type == .plainString || type == .escapedString {
                    start += 1
                    end -= 1
                }
                fields.append(
                    JSONField(
                        keyStart: key.start, keyEnd: key.end, valueStart: start, valueEnd: end,
                        type: type, keyEscaped: key.escaped))
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    continue
                }
                guard peek == UInt8(ascii: "}") else { throw fail("expected ',' or '}' after a value") }
                index += 1
                break
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the object") }
    }

    /// Scans a string starting at its opening quote; returns its content's offsets.
    private mutating func scanString() throws(JSONSyntaxError) -> (start: Int, end: Int, escaped: Bool) {
        index += 1
        let start = index
        var escaped = false
        skipPlainStringBytes()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start, index - 1, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                switch peek {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard JSONStringDecoding.hexValue(peek) != nil else {
                            throw fail("expected four hex digits after \\u")
                        }
                        index += 1
                    }
                default:
                    throw fail("invalid escape in a string")
                }
                continue
            }
            guard byte >= 0x20 else { throw fail("control character in a string; it must be escaped") }
            index += 1
        }
        throw fail("unterminated string")
    }

    /// Skips string content that needs no attention, eight bytes at a time: it stops at the first
    /// quote, backslash or control character (or near the end), where the byte loop takes over.
    @inline(__always)
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        index = JSONStringScan.plainBytesEnd(base, from: index, count: bytes.count)
    }

    private mutating func scanValue(depth: Int) throws(JSONSyntaxError) -> JSONValueType {
        switch peek {
        case UInt8(ascii: "\""):
            return try scanString().escaped ? .escapedString : .plainString
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try scanNumber()
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .true
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .false
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipContainer(depth: depth + 1)
            return .nested
        default:
            throw fail("expected a value")
        }
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
            (0..<count).allSatisfy({ bytes[index + $0] == literal.utf8Start[$0] })
        else { throw fail("expected \(literal)") }
        index += count
    }

    /// Checks the JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func scanNumber() throws(JSONSyntaxError) -> JSONValueType {
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else {
            guard isDigit(peek) else { throw fail("expected a digit") }
            while isDigit(peek) { index += 1 }
        }
        var type = JSONValueType.integer
        if peek == UInt8(ascii: ".") {
            index += 1
            guard isDigit(peek) else { throw fail("expected a digit after '.'") }
            while isDigit(peek) { index += 1 }
            type = .fraction
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard isDigit(peek) else { throw fail("expected a digit in the exponent") }
            while isDigit(peek) { index += 1 }
            type = .fraction
        }
        return type
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Validates and skips an object or array starting at its opening bracket.
    private mutating func skipContainer(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) levels deep") }
        let isObject = peek == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if peek == close {
            index += 1
            return
        }
        while true {
            if isObject {
                guard peek == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
                _ = try scanString()
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                index += 1
                skipWhitespace()
            }
            _ = try scanValue(depth: depth)
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                continue
            }
            guard peek == close else { throw fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'") }
            index += 1
            return
        }
    }
}

/// The eight-bytes-at-a-time scan of JSON string content both decoders use.
enum JSONStringScan {
    /// The index of the first byte from `start` on that is a quote, a backslash or a control
    /// character, or where fewer than eight bytes remain; the caller's byte loop goes on from there.
    @inline(__always)
    static func plainBytesEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Has-zero-byte tests: a byte equal to '"' or '\\', or below 0x20. The lowest flagged
            // byte is always a true match, so stopping there is exact.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let found =
                ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        return index
    }
}
